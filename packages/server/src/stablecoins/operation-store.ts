import type { Executor, Tx } from "../core/db/db.js";
import { listPage, type PageRequest, type PageResult } from "../core/http/pagination.js";
import { parseMinorUnits } from "../core/money.js";
import type { OperationStatus, StablecoinOperationType } from "./schemas.js";

export interface OperationRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  stablecoin_id: string;
  type: StablecoinOperationType;
  status: OperationStatus;
  amount: number;
  currency: string;
  account_id: string;
  provider_account_id: string;
  transaction_id: string;
  /**
   * A mint's external wallet (`ExternalAccount:`) that receives the tokens, or a burn's external bank account
   * the redeemed money is paid out to; null: the provider's treasury (mint), the internal account (burn).
   */
  destination_account_id: string | null;
  /** A burn's payout rail (our PaymentRail, mapped from the hosted one); null otherwise. */
  destination_rail: string | null;
  failure_reason: string | null;
  /** The request's `description` (hosted StablecoinMintRequest/StablecoinBurnRequest), echoed back. */
  description: string | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The tokens a provider account holds of a stablecoin, locked; undefined when it never held any. */
export async function lockHolding(
  tx: Tx,
  providerAccountId: string,
  stablecoinId: string,
): Promise<number | undefined> {
  const [row] = await tx.query<{ amount: unknown }>(
    `SELECT amount FROM stablecoin_holdings WHERE provider_account_id = $1 AND stablecoin_id = $2 FOR UPDATE`,
    [providerAccountId, stablecoinId],
  );
  return row ? parseMinorUnits(row.amount) : undefined;
}

/** Adds `delta` (signed) to a provider account's holding of a stablecoin, creating it at zero first. */
export async function addToHolding(
  tx: Tx,
  holding: { platformId: string; providerAccountId: string; stablecoinId: string },
  delta: number,
  now: Date,
): Promise<void> {
  await tx.query(
    `INSERT INTO stablecoin_holdings (provider_account_id, stablecoin_id, platform_id, amount, updated_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (provider_account_id, stablecoin_id)
     DO UPDATE SET amount = stablecoin_holdings.amount + EXCLUDED.amount, updated_at = EXCLUDED.updated_at`,
    [holding.providerAccountId, holding.stablecoinId, holding.platformId, delta, now],
  );
}

export async function insertOperation(tx: Tx, row: OperationRow): Promise<void> {
  await tx.query(
    `INSERT INTO stablecoin_operations (id, platform_id, stablecoin_id, type, status, amount, currency, account_id,
       provider_account_id, transaction_id, failure_reason, completed_at, created_at, updated_at, description,
       destination_account_id, destination_rail)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
    [
      row.id,
      row.platform_id,
      row.stablecoin_id,
      row.type,
      row.status,
      row.amount,
      row.currency,
      row.account_id,
      row.provider_account_id,
      row.transaction_id,
      row.failure_reason,
      row.completed_at,
      row.created_at,
      row.updated_at,
      row.description,
      row.destination_account_id,
      row.destination_rail,
    ],
  );
}

export async function findOperation(
  db: Executor,
  platformId: string,
  id: string,
  lock = false,
): Promise<OperationRow | undefined> {
  const [row] = await db.query<OperationRow>(
    `SELECT * FROM stablecoin_operations WHERE platform_id = $1 AND id = $2${lock ? " FOR UPDATE" : ""}`,
    [platformId, id],
  );
  return row;
}

export async function settleOperation(
  tx: Tx,
  id: string,
  outcome: { status: OperationStatus; failure_reason: string | null; now: Date },
): Promise<OperationRow> {
  const [row] = await tx.query<OperationRow>(
    `UPDATE stablecoin_operations SET status = $2, failure_reason = $3, completed_at = $4, updated_at = $4
     WHERE id = $1 RETURNING *`,
    [id, outcome.status, outcome.failure_reason, outcome.now],
  );
  if (!row) throw new Error(`stablecoin operation ${id} vanished under its lock`);
  return row;
}

export function listOperations(
  db: Executor,
  platformId: string,
  stablecoinId: string,
  filters: { operationType?: string | undefined; status?: string | undefined },
  page: PageRequest,
): Promise<PageResult<OperationRow>> {
  const where = ["platform_id = $1", "stablecoin_id = $2"];
  const params: unknown[] = [platformId, stablecoinId];
  for (const [column, value] of [
    ["type", filters.operationType],
    ["status", filters.status],
  ] as const) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`${column} = $${params.length}`);
  }
  return listPage<OperationRow>({
    executor: db,
    table: "stablecoin_operations",
    where,
    params,
    scope: `stablecoin-operations|${platformId}|${stablecoinId}|${filters.operationType}|${filters.status}`,
    ...page,
  });
}
