import type { Executor, Tx } from "../core/db/db.js";
import type { Environment } from "../core/http/context.js";

export interface KycLinkRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  customer_id: string;
  token_hash: string;
  redirect_uri: string | null;
  expires_at: Date;
  created_at: Date;
}

export async function insertKycLink(tx: Tx, row: KycLinkRow): Promise<void> {
  await tx.query(
    `INSERT INTO kyc_links (id, platform_id, customer_id, token_hash, redirect_uri, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      row.id,
      row.platform_id,
      row.customer_id,
      row.token_hash,
      row.redirect_uri,
      row.expires_at,
      row.created_at,
    ],
  );
}

/** A link found by its token, with what the hosted page shows: the page is called without a platform. */
export interface KycLinkLookup {
  link: KycLinkRow;
  customer: {
    customer_type: "INDIVIDUAL" | "BUSINESS";
    kyc_status: string;
    is_deleted: boolean;
    profile: Record<string, unknown>;
  };
  environment: Environment;
  clockOffsetMs: number;
}

export async function findKycLink(db: Executor, tokenHash: string): Promise<KycLinkLookup | undefined> {
  const [row] = await db.query<
    KycLinkRow & KycLinkLookup["customer"] & { environment: Environment; clock_offset_ms: number | string }
  >(
    `SELECT l.*, c.customer_type, c.kyc_status, c.is_deleted, c.profile, p.environment, p.clock_offset_ms
       FROM kyc_links l
       JOIN customers c ON c.id = l.customer_id
       JOIN platforms p ON p.id = l.platform_id
      WHERE l.token_hash = $1`,
    [tokenHash],
  );
  if (!row) return undefined;
  const { customer_type, kyc_status, is_deleted, profile, environment, clock_offset_ms, ...link } = row;
  return {
    link: link as KycLinkRow,
    customer: { customer_type, kyc_status, is_deleted, profile },
    environment,
    clockOffsetMs: Number(clock_offset_ms),
  };
}
