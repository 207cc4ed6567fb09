import type { Executor, Tx } from "../core/db/db.js";

export type ResetStatus = "INITIATED" | "LIVENESS_PASSED" | "COMPLETED" | "REJECTED" | "EXPIRED";

export interface ResetRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  customer_id: string;
  /** The wire factor being reset: SMS_OTP, TOTP or PASSKEY. */
  factor: string;
  status: ResetStatus;
  /** SHA-256 (hex) of the verification token; the token itself is only ever in the link. */
  token_hash: string;
  enrollment_status: "PENDING" | "COMPLETED" | null;
  expires_at: Date;
  liveness_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export async function insertReset(tx: Tx, row: ResetRow): Promise<void> {
  await tx.query(
    `INSERT INTO sca_factor_resets (id, platform_id, customer_id, factor, status, token_hash, enrollment_status,
       expires_at, liveness_at, completed_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      row.id,
      row.platform_id,
      row.customer_id,
      row.factor,
      row.status,
      row.token_hash,
      row.enrollment_status,
      row.expires_at,
      row.liveness_at,
      row.completed_at,
      row.created_at,
      row.updated_at,
    ],
  );
}

export async function findReset(db: Executor, platformId: string, id: string, lock = false) {
  const [row] = await db.query<ResetRow>(
    `SELECT * FROM sca_factor_resets WHERE platform_id = $1 AND id = $2${lock ? " FOR UPDATE" : ""}`,
    [platformId, id],
  );
  return row;
}

/**
 * The reset a verification link names, locked, with its platform's sandbox clock offset: the page is
 * called without a platform.
 */
export async function findResetByToken(tx: Tx, tokenHash: string) {
  const [row] = await tx.query<ResetRow & { clock_offset_ms: string | number }>(
    `SELECT r.*, p.clock_offset_ms FROM sca_factor_resets r JOIN platforms p ON p.id = r.platform_id
     WHERE r.token_hash = $1 FOR UPDATE OF r`,
    [tokenHash],
  );
  return row;
}

/** The customer's newest reset, for the 429 spacing of starts. */
export async function latestReset(tx: Tx, customerId: string) {
  const [row] = await tx.query<ResetRow>(
    "SELECT * FROM sca_factor_resets WHERE customer_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1",
    [customerId],
  );
  return row;
}

/** Ends the customer's open resets (a new start replaces them). */
export async function expireOpenResets(tx: Tx, customerId: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE sca_factor_resets SET status = 'EXPIRED', updated_at = $2
     WHERE customer_id = $1 AND status IN ('INITIATED', 'LIVENESS_PASSED')`,
    [customerId, now],
  );
}

export async function setResetStatus(
  tx: Tx,
  id: string,
  fields: { status: ResetStatus; now: Date; livenessAt?: Date; completedAt?: Date; enrollment?: string },
): Promise<void> {
  await tx.query(
    `UPDATE sca_factor_resets SET status = $2, updated_at = $3, liveness_at = COALESCE($4, liveness_at),
       completed_at = COALESCE($5, completed_at), enrollment_status = COALESCE($6, enrollment_status)
     WHERE id = $1`,
    [
      id,
      fields.status,
      fields.now,
      fields.livenessAt ?? null,
      fields.completedAt ?? null,
      fields.enrollment ?? null,
    ],
  );
}
