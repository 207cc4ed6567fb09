import type { Executor, Tx } from "../core/db/db.js";

/** The columns of a balance change the feed shows. */
export interface FeedRow {
  [column: string]: unknown;
  id: string;
  amount: number;
  fee: number;
  transaction_id: string;
  effective_at: Date;
}

export interface Window {
  accountId: string;
  from: Date;
  to: Date;
}

/** Where a cursor row sits in the window's (effective_at, id) order, if it is one of this account's changes. */
export async function findChangePosition(
  db: Executor,
  accountId: string,
  id: string,
): Promise<{ effective_at: Date } | undefined> {
  const [row] = await db.query<{ effective_at: Date }>(
    "SELECT effective_at FROM balance_changes WHERE id = $1 AND account_id = $2",
    [id, accountId],
  );
  return row;
}

/** One page of the feed as the JSON text of its `data` elements, written by the database (issue 20). */
export interface JsonPage {
  [column: string]: unknown;
  /** Rows read: `limit + 1` when there is more. */
  fetched: number;
  /** The id of the page's last change (the next cursor when there is more). */
  last_id: string | null;
  /** The page's changes as comma-separated JSON objects, in feed order. */
  data: string;
  /** The account's running balance and change count before `from` and before `to` (null: no change yet). */
  start_balance: number | null;
  start_count: number | null;
  end_balance: number | null;
  end_count: number | null;
}

/** The running balance and count of the account's last change before an instant: one index lookup. */
const positionBefore = (instant: string) =>
  `LEFT JOIN LATERAL (
     SELECT balance_after, count_after FROM balance_changes WHERE account_id = $1 AND effective_at < ${instant}
     ORDER BY effective_at DESC, id DESC LIMIT 1) AS before_${instant.slice(1)} ON true`;

/**
 * pageOfChanges with the page's changes written as JSON by the database, so a 200-row page reaches the
 * client without being decoded into rows and encoded again (the page was CPU-bound in Node: issue 20).
 * Each element is what statements/schemas.ts BalanceChange describes; `currencyJson` is the account's
 * currency object. The window's opening and closing positions come in the same statement (one round trip).
 */
export async function pageOfChangesAsJson(
  db: Executor,
  window: Window,
  after: { effectiveAt: Date; id: string } | null,
  limit: number,
  currencyJson: string,
): Promise<JsonPage> {
  const params: unknown[] = [window.accountId, window.from, window.to, limit, currencyJson];
  let keyset = "";
  if (after) {
    params.push(after.effectiveAt, after.id);
    keyset = "AND (effective_at, id) > ($6, $7)";
  }
  const [page] = await db.query<JsonPage>(
    `WITH page AS (
       SELECT id, amount, fee, transaction_id, effective_at FROM balance_changes
       WHERE account_id = $1 AND effective_at >= $2 AND effective_at < $3 ${keyset}
       ORDER BY effective_at, id LIMIT $4::int8 + 1
     ), numbered AS (
       SELECT page.*, row_number() OVER (ORDER BY effective_at, id) AS k FROM page
     )
     SELECT page_json.*,
            before_2.balance_after AS start_balance, before_2.count_after AS start_count,
            before_3.balance_after AS end_balance, before_3.count_after AS end_count
     FROM (
       SELECT count(*)::int8 AS fetched,
              max(id) FILTER (WHERE k = $4::int8) AS last_id,
              COALESCE(string_agg(
                '{"id":' || to_json(id)::text
                || ',"amount":{"amount":' || amount::text || ',"currency":' || $5::text || '}'
                || ',"fee":{"amount":' || fee::text || ',"currency":' || $5::text || '}'
                || ',"transactionId":' || COALESCE(to_json(transaction_id)::text, 'null')
                || ',"effectiveAt":"' || to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}',
                ',' ORDER BY k) FILTER (WHERE k <= $4::int8), '') AS data
       FROM numbered) AS page_json
     ${positionBefore("$2")}
     ${positionBefore("$3")}`,
    params,
  );
  if (!page) throw new Error("the page query answered no row");
  return page;
}

export interface DeliveryRow {
  [column: string]: unknown;
  platform_id: string;
  account_id: string;
  period_start: Date;
  fetched_at: Date | null;
  confirmed_at: Date | null;
}

export interface DeliveryKey {
  platformId: string;
  accountId: string;
  periodStart: Date;
}

/** Records the first fetch of a period; a record that already has fetched_at keeps it. */
export async function recordFetched(tx: Tx, key: DeliveryKey, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO statement_deliveries (platform_id, account_id, period_start, fetched_at)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id, period_start) DO UPDATE SET fetched_at = EXCLUDED.fetched_at
     WHERE statement_deliveries.fetched_at IS NULL`,
    [key.platformId, key.accountId, key.periodStart, now],
  );
}

/**
 * Sets confirmed_at if no receipt was recorded yet, returning the row only when this call set it. Two
 * concurrent receipts serialize on the primary key: the second sees confirmed_at set and returns nothing.
 */
export async function confirmOnce(tx: Tx, key: DeliveryKey, now: Date): Promise<DeliveryRow | undefined> {
  const [row] = await tx.query<DeliveryRow>(
    `INSERT INTO statement_deliveries (platform_id, account_id, period_start, confirmed_at)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id, period_start) DO UPDATE SET confirmed_at = EXCLUDED.confirmed_at
     WHERE statement_deliveries.confirmed_at IS NULL
     RETURNING *`,
    [key.platformId, key.accountId, key.periodStart, now],
  );
  return row;
}

export async function findDelivery(
  db: Executor,
  accountId: string,
  periodStart: Date,
): Promise<DeliveryRow | undefined> {
  const [row] = await db.query<DeliveryRow>(
    "SELECT * FROM statement_deliveries WHERE account_id = $1 AND period_start = $2",
    [accountId, periodStart],
  );
  return row;
}

/** One page of an account's delivery records by period_start (unique per account), plus the total. */
export async function listDeliveries(
  db: Executor,
  accountId: string,
  page: { limit: number; after: Date | null; order: "asc" | "desc" },
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const params: unknown[] = [accountId];
  let keyset = "";
  if (page.after) {
    params.push(page.after);
    keyset = `AND period_start ${page.order === "asc" ? ">" : "<"} $2`;
  }
  params.push(page.limit);
  const direction = page.order === "asc" ? "ASC" : "DESC";
  const rows = await db.query<DeliveryRow>(
    `SELECT * FROM statement_deliveries WHERE account_id = $1 ${keyset}
     ORDER BY period_start ${direction} LIMIT $${params.length}`,
    params,
  );
  const [count] = await db.query<{ n: number }>(
    "SELECT count(*)::int8 AS n FROM statement_deliveries WHERE account_id = $1",
    [accountId],
  );
  return { rows, total: count?.n ?? 0 };
}
