import type { Tx } from "../core/db/db.js";
import { claimRowsInBatch } from "../core/db/group-commit.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";

/** A change to write: its running balance and count come from the changes before it. */
export interface NewBalanceChange {
  id: string;
  platform_id: string;
  account_id: string;
  transaction_id: string;
  amount: number;
  fee: number;
  effective_at: Date;
  recorded_at: Date;
}

/** A written change, with the account's running balance and change count after it. */
export interface BalanceChangeRow extends NewBalanceChange {
  [column: string]: unknown;
  balance_after: number;
  count_after: number;
}

/** The claim a grouped posting makes on an account before locking it (core/db/group-commit.ts). */
const accountClaim = (id: string) => `internal_accounts:${id}`;

/** Locks the accounts in id order (the fixed order that keeps concurrent postings free of deadlocks). */
export async function lockAccounts(tx: Tx, platformId: string, ids: string[]): Promise<InternalAccountRow[]> {
  claimRowsInBatch(ids.map(accountClaim));
  return tx.query<InternalAccountRow>(
    "SELECT * FROM internal_accounts WHERE platform_id = $1 AND id = ANY($2) ORDER BY id FOR UPDATE",
    [platformId, ids],
  );
}

/** Locks one account unless it is rule-based (its money lands on its owner's account, locked instead). */
export async function lockAccountUnlessRuleBased(
  tx: Tx,
  platformId: string,
  id: string,
): Promise<InternalAccountRow | undefined> {
  claimRowsInBatch([accountClaim(id)]);
  const [row] = await tx.query<InternalAccountRow>(
    "SELECT * FROM internal_accounts WHERE platform_id = $1 AND id = $2 AND role <> 'RULE_BASED' FOR UPDATE",
    [platformId, id],
  );
  return row;
}

/** The change's place in its account's order, as CTEs over parameters $1-$9 (see insertBalanceChange). */
const CHANGE_CTES = `before AS (
       SELECT balance_after, count_after FROM balance_changes
       WHERE account_id = $3 AND (effective_at, id) < ($7, $1) ORDER BY effective_at DESC, id DESC LIMIT 1),
     shifted AS (
       UPDATE balance_changes SET balance_after = balance_after + $5, count_after = count_after + 1
       WHERE account_id = $3 AND (effective_at, id) > ($7, $1)
       RETURNING balance_after),
     inserted AS (
       INSERT INTO balance_changes (id, platform_id, account_id, transaction_id, amount, fee, effective_at, recorded_at,
         balance_after, count_after)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8,
              COALESCE((SELECT balance_after FROM before), 0) + $5, COALESCE((SELECT count_after FROM before), 0) + 1
       RETURNING balance_after),
     flag AS (
       SELECT (SELECT abs(balance_after) > $9 FROM inserted)
           OR COALESCE((SELECT bool_or(abs(balance_after) > $9) FROM shifted), false) AS over)`;

const changeParams = (change: NewBalanceChange, bound: number) => [
  change.id,
  change.platform_id,
  change.account_id,
  change.transaction_id,
  change.amount,
  change.fee,
  change.effective_at,
  change.recorded_at,
  bound,
];

/**
 * Writes one change at its place in the account's order (effectiveAt, id), in one statement: its running
 * balance from the change just before it, and every later change (a clearing dated inside the settlement
 * lag) shifted by its amount. `over` is true when any running balance passes `bound` (compared in SQL:
 * such a value is not exact as a JS number, so it is never read back).
 */
export async function insertBalanceChange(
  tx: Tx,
  change: NewBalanceChange,
  bound: number,
): Promise<{ over: boolean }> {
  const [result] = await tx.query<{ over: boolean }>(
    `WITH ${CHANGE_CTES} SELECT over FROM flag`,
    changeParams(change, bound),
  );
  return { over: result?.over === true };
}

/**
 * insertBalanceChange and applyToAccounts in one statement (one round trip fewer per posting, issue 20):
 * the last change of a posting is written with the accounts' deltas. Answers `over` and the updated rows.
 */
export async function insertBalanceChangeAndApply(
  tx: Tx,
  change: NewBalanceChange,
  bound: number,
  deltas: AccountDelta[],
  now: Date,
): Promise<{ over: boolean; accounts: InternalAccountRow[] }> {
  const rows = await tx.query<InternalAccountRow & { over: boolean }>(
    `WITH ${CHANGE_CTES},
     updated AS (
       UPDATE internal_accounts a SET total_balance = a.total_balance + v.net, held_amount = a.held_amount + v.held,
         version = a.version + 1, updated_at = $13
       FROM unnest($10::text[], $11::bigint[], $12::bigint[]) AS v(id, net, held)
       WHERE a.id = v.id RETURNING a.*)
     SELECT updated.*, flag.over FROM updated CROSS JOIN flag`,
    [
      ...changeParams(change, bound),
      deltas.map((d) => d.id),
      deltas.map((d) => d.net),
      deltas.map((d) => d.held),
      now,
    ],
  );
  if (rows.length !== deltas.length) throw new Error("an account vanished while locked");
  const over = rows.some((row) => row.over === true);
  return { over, accounts: rows.map(({ over: _, ...row }) => row as InternalAccountRow) };
}

export interface AccountDelta {
  id: string;
  /** Added to the total balance. */
  net: number;
  /** Added to the held amount. */
  held: number;
}

/** Applies each account's delta and bumps its version, in one statement; answers the updated rows. */
export async function applyToAccounts(
  tx: Tx,
  deltas: AccountDelta[],
  now: Date,
): Promise<InternalAccountRow[]> {
  const rows = await tx.query<InternalAccountRow>(
    `UPDATE internal_accounts a SET total_balance = a.total_balance + v.net, held_amount = a.held_amount + v.held,
       version = a.version + 1, updated_at = $4
     FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS v(id, net, held)
     WHERE a.id = v.id RETURNING a.*`,
    [deltas.map((d) => d.id), deltas.map((d) => d.net), deltas.map((d) => d.held), now],
  );
  if (rows.length !== deltas.length) throw new Error("an account vanished while locked");
  return rows;
}
