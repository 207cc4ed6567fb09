import type { Executor, Tx } from "../core/db/db.js";
import { listPage, type PageRequest, type PageResult } from "../core/http/pagination.js";
import type { EnablementStatus, StablecoinNetwork, StablecoinOperationType } from "./schemas.js";

export interface StablecoinRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  symbol: string;
  name: string;
  network: StablecoinNetwork;
  token_identifier: string;
  token_identity: string;
  decimals: number;
  backing_currency: string;
  supported_operations: StablecoinOperationType[];
  enablement_status: EnablementStatus;
  provisioned: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface ProviderAccountRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  provider: string;
  account_reference: string;
  networks: StablecoinNetwork[];
  status: "ACTIVE" | "REVOKED";
  revoked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const stablecoinConstraints = {
  symbol: "stablecoins_platform_symbol_key",
  token: "stablecoins_platform_token_key",
} as const;

export async function insertStablecoin(tx: Tx, row: StablecoinRow): Promise<void> {
  await tx.query(
    `INSERT INTO stablecoins (id, platform_id, symbol, name, network, token_identifier, token_identity, decimals,
       backing_currency, supported_operations, enablement_status, provisioned, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      row.id,
      row.platform_id,
      row.symbol,
      row.name,
      row.network,
      row.token_identifier,
      row.token_identity,
      row.decimals,
      row.backing_currency,
      JSON.stringify(row.supported_operations),
      row.enablement_status,
      row.provisioned,
      row.created_at,
      row.updated_at,
    ],
  );
}

export async function findStablecoin(
  db: Executor,
  platformId: string,
  id: string,
  lock = false,
): Promise<StablecoinRow | undefined> {
  const [row] = await db.query<StablecoinRow>(
    `SELECT * FROM stablecoins WHERE platform_id = $1 AND id = $2${lock ? " FOR UPDATE" : ""}`,
    [platformId, id],
  );
  return row;
}

export async function updateStablecoinState(
  tx: Tx,
  id: string,
  state: { enablement_status: EnablementStatus; provisioned: boolean; updated_at: Date },
): Promise<StablecoinRow> {
  const [row] = await tx.query<StablecoinRow>(
    `UPDATE stablecoins SET enablement_status = $2, provisioned = $3, updated_at = $4 WHERE id = $1 RETURNING *`,
    [id, state.enablement_status, state.provisioned, state.updated_at],
  );
  if (!row) throw new Error(`stablecoin ${id} vanished under its lock`);
  return row;
}

export function listStablecoins(
  db: Executor,
  platformId: string,
  page: PageRequest,
): Promise<PageResult<StablecoinRow>> {
  return listPage<StablecoinRow>({
    executor: db,
    table: "stablecoins",
    where: ["platform_id = $1"],
    params: [platformId],
    scope: `stablecoins|${platformId}`,
    ...page,
  });
}

export async function insertProviderAccount(tx: Tx, row: ProviderAccountRow): Promise<void> {
  await tx.query(
    `INSERT INTO stablecoin_provider_accounts (id, platform_id, provider, account_reference, networks, status,
       revoked_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      row.id,
      row.platform_id,
      row.provider,
      row.account_reference,
      JSON.stringify(row.networks),
      row.status,
      row.revoked_at,
      row.created_at,
      row.updated_at,
    ],
  );
}

export async function findProviderAccount(
  db: Executor,
  platformId: string,
  id: string,
  lock = false,
): Promise<ProviderAccountRow | undefined> {
  const [row] = await db.query<ProviderAccountRow>(
    `SELECT * FROM stablecoin_provider_accounts WHERE platform_id = $1 AND id = $2${lock ? " FOR SHARE" : ""}`,
    [platformId, id],
  );
  return row;
}

/** The provider of each of the platform's provider accounts named, by account id. */
export async function providersOf(
  db: Executor,
  platformId: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ id: string; provider: string }>(
    `SELECT id, provider FROM stablecoin_provider_accounts WHERE platform_id = $1 AND id = ANY($2)`,
    [platformId, [...new Set(ids)]],
  );
  return new Map(rows.map((row) => [row.id, row.provider]));
}

/** The platform's ACTIVE provider accounts, locked against a concurrent revoke. */
export function activeProviderAccounts(tx: Tx, platformId: string): Promise<ProviderAccountRow[]> {
  return tx.query<ProviderAccountRow>(
    `SELECT * FROM stablecoin_provider_accounts WHERE platform_id = $1 AND status = 'ACTIVE'
     ORDER BY id LIMIT 2 FOR SHARE`,
    [platformId],
  );
}

export async function revokeProviderAccount(
  tx: Tx,
  platformId: string,
  id: string,
  now: Date,
): Promise<ProviderAccountRow | undefined> {
  const [row] = await tx.query<ProviderAccountRow>(
    `UPDATE stablecoin_provider_accounts
     SET status = 'REVOKED', revoked_at = COALESCE(revoked_at, $3), updated_at = CASE WHEN status = 'REVOKED' THEN updated_at ELSE $3 END
     WHERE platform_id = $1 AND id = $2 RETURNING *`,
    [platformId, id, now],
  );
  return row;
}

export function listProviderAccounts(
  db: Executor,
  platformId: string,
  filters: { status?: string | undefined },
  page: PageRequest,
): Promise<PageResult<ProviderAccountRow>> {
  const where = ["platform_id = $1"];
  const params: unknown[] = [platformId];
  if (filters.status !== undefined) {
    params.push(filters.status);
    where.push(`status = $${params.length}`);
  }
  return listPage<ProviderAccountRow>({
    executor: db,
    table: "stablecoin_provider_accounts",
    where,
    params,
    scope: `stablecoin-provider-accounts|${platformId}|${filters.status}`,
    ...page,
  });
}
