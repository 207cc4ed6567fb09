import type { Executor, Tx } from "../core/db/db.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";

export interface BalanceChangeRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  account_id: string;
  transaction_id: string;
  amount: number;
  fee: number;
  effective_at: Date;
  recorded_at: Date;
  balance_after: number;
  count_after: number;
}

/** Locks the accounts in id order (the fixed order that keeps concurrent postings free of deadlocks). */
export async function lockAccounts(tx: Tx, platformId: string, ids: string[]): Promise<InternalAccountRow[]> {
  return tx.query<InternalAccountRow>(
    "SELECT * FROM internal_accounts WHERE platform_id = $1 AND id = ANY($2) ORDER BY id FOR UPDATE",
    [platformId, ids],
  );
}

/** The account's balance and change count just before (effectiveAt, id): the last change's running values. */
export async function positionBefore(
  db: Executor,
  accountId: string,
  effectiveAt: Date,
  id: string | null,
): Promise<{ balance: number; count: number }> {
  const [row] = await db.query<{ balance_after: number; count_after: number }>(
    id === null
      ? `SELECT balance_after, count_after FROM balance_changes WHERE account_id = $1 AND effective_at < $2
         ORDER BY effective_at DESC, id DESC LIMIT 1`
      : `SELECT balance_after, count_after FROM balance_changes WHERE account_id = $1 AND (effective_at, id) < ($2, $3)
         ORDER BY effective_at DESC, id DESC LIMIT 1`,
    id === null ? [accountId, effectiveAt] : [accountId, effectiveAt, id],
  );
  return { balance: row?.balance_after ?? 0, count: row?.count_after ?? 0 };
}

/** The account's balance just before (effectiveAt, id), or 0. */
export async function balanceBefore(
  db: Executor,
  accountId: string,
  effectiveAt: Date,
  id: string | null,
): Promise<number> {
  return (await positionBefore(db, accountId, effectiveAt, id)).balance;
}

export async function insertBalanceChange(tx: Tx, row: BalanceChangeRow): Promise<void> {
  await tx.query(
    `INSERT INTO balance_changes (id, platform_id, account_id, transaction_id, amount, fee, effective_at, recorded_at,
       balance_after, count_after)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      row.id,
      row.platform_id,
      row.account_id,
      row.transaction_id,
      row.amount,
      row.fee,
      row.effective_at,
      row.recorded_at,
      row.balance_after,
      row.count_after,
    ],
  );
}

/**
 * A change dated before existing ones (a card clearing inside the settlement lag) shifts the running
 * balance of the later rows; backdating is bounded by the lag, so this touches only recent rows. True
 * when a shifted balance passes `bound` (compared in SQL: such a value is not exact as a JS number).
 */
export async function shiftLaterBalances(tx: Tx, row: BalanceChangeRow, bound: number): Promise<boolean> {
  const [result] = await tx.query<{ over: boolean | null }>(
    `WITH shifted AS (
       UPDATE balance_changes SET balance_after = balance_after + $4, count_after = count_after + 1
       WHERE account_id = $1 AND (effective_at, id) > ($2, $3)
       RETURNING balance_after)
     SELECT bool_or(abs(balance_after) > $5) AS over FROM shifted`,
    [row.account_id, row.effective_at, row.id, row.amount, bound],
  );
  return result?.over === true;
}

export async function applyToAccount(
  tx: Tx,
  accountId: string,
  net: number,
  heldDelta: number,
  now: Date,
): Promise<InternalAccountRow> {
  const [row] = await tx.query<InternalAccountRow>(
    `UPDATE internal_accounts SET total_balance = total_balance + $2, held_amount = held_amount + $3,
       version = version + 1, updated_at = $4
     WHERE id = $1 RETURNING *`,
    [accountId, net, heldDelta, now],
  );
  if (!row) throw new Error(`account ${accountId} vanished while locked`);
  return row;
}
