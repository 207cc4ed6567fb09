import type { Executor, Tx } from "../core/db/db.js";
import type { Environment, Permission } from "../core/http/context.js";
import { listPage, type PageRequest, type PageResult } from "../core/http/pagination.js";
import { type TimeRange, timeRangeConditions } from "../core/http/time-range.js";

export interface TokenRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  name: string;
  permissions: Permission[];
  client_id: string;
  secret_hash: string;
  created_at: Date;
  updated_at: Date;
}

export async function insertToken(tx: Tx, row: TokenRow): Promise<void> {
  await tx.query(
    `INSERT INTO api_tokens (id, platform_id, name, permissions, client_id, secret_hash, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      row.id,
      row.platform_id,
      row.name,
      row.permissions,
      row.client_id,
      row.secret_hash,
      row.created_at,
      row.updated_at,
    ],
  );
}

export async function findTokenByClientId(
  db: Executor,
  clientId: string,
): Promise<(TokenRow & { environment: Environment; clock_offset_ms: number }) | undefined> {
  const [row] = await db.query<TokenRow & { environment: Environment; clock_offset_ms: number }>(
    `SELECT t.*, p.environment, p.clock_offset_ms FROM api_tokens t JOIN platforms p ON p.id = t.platform_id WHERE t.client_id = $1`,
    [clientId],
  );
  return row;
}

export async function findToken(db: Executor, platformId: string, id: string): Promise<TokenRow | undefined> {
  const [row] = await db.query<TokenRow>("SELECT * FROM api_tokens WHERE platform_id = $1 AND id = $2", [
    platformId,
    id,
  ]);
  return row;
}

export async function deleteToken(tx: Tx, platformId: string, id: string): Promise<boolean> {
  const rows = await tx.query("DELETE FROM api_tokens WHERE platform_id = $1 AND id = $2 RETURNING id", [
    platformId,
    id,
  ]);
  return rows.length > 0;
}

export interface TokenFilters extends TimeRange {
  /** The exact token name. */
  name?: string | undefined;
}

export function listTokens(
  db: Executor,
  platformId: string,
  filters: TokenFilters,
  page: PageRequest,
): Promise<PageResult<TokenRow>> {
  const where = ["platform_id = $1"];
  const params: unknown[] = [platformId];
  if (filters.name !== undefined) {
    params.push(filters.name);
    where.push(`name = $${params.length}`);
  }
  where.push(...timeRangeConditions(filters, params));
  return listPage<TokenRow>({
    executor: db,
    table: "api_tokens",
    where,
    params,
    scope: `tokens|${platformId}|${JSON.stringify(filters)}`,
    ...page,
  });
}
