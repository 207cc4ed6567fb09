import type { Tx } from "../core/db/db.js";
import { ApiError } from "../core/errors/api-error.js";
import { newId } from "../core/ids.js";
import { assertMinorUnits, MAX_AMOUNT } from "../core/money.js";
import { toInternalAccount } from "../customers/accounts.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import { enqueueEventsAtCommit } from "../webhooks/commit-batch.js";
import * as store from "./store.js";

export type { BalanceChangeRow } from "./store.js";

export interface Posting {
  accountId: string;
  /** Signed minor units: the full effect on the balance, fees included. */
  amount: number;
  /** The part of `amount` that is a service fee: negative when charged, positive when refunded. */
  fee?: number;
  transactionId: string;
}

export interface PostingBatch {
  platformId: string;
  /** When the postings are recorded (the platform's clock). */
  now: Date;
  /** When the money moved; defaults to `now`. Earlier only within the settlement lag (card clearings). */
  effectiveAt?: Date;
  /** Required with an earlier `effectiveAt`: how far back a change may be dated (Deps.settlementLagMs). */
  settlementLagMs?: number;
  postings: Posting[];
  /** Allow the balance to go below zero (a clearing the account cannot cover; a failed refund). */
  allowOverdraft?: boolean;
  /**
   * Changes to card-authorization holds, applied under the same lock: a hold lowers the available
   * `balance` without a balance change. Holds are never funds-checked (production approves underfunded
   * authorizations), but a debit posted in the same batch is checked against the balance after them.
   */
  holds?: HoldChange[];
  /** The accounts already locked by `lockForPosting` in this transaction (the caller checked them first). */
  locked?: LockedAccounts;
}

export interface HoldChange {
  accountId: string;
  /** Signed minor units added to the account's held amount. */
  delta: number;
}

/**
 * A balance past the largest amount (conventions §1.4) could not be read back exactly: the posting is
 * refused as a whole, inside the caller's transaction, so nothing of it is written.
 */
function balanceOutOfRange(accountId: string): ApiError {
  return new ApiError("AMOUNT_OUT_OF_RANGE", {
    reason: `The posting would take account ${accountId}'s balance past ${MAX_AMOUNT} minor units, the largest amount.`,
  });
}

const representable = (balance: number) => Math.abs(balance) <= MAX_AMOUNT;

export interface PostingResult {
  /** The changes written, in posting order (their running balances stay in the database). */
  changes: store.NewBalanceChange[];
  accounts: Map<string, InternalAccountRow>;
}

declare const lockedBrand: unique symbol;
/** Account rows locked `FOR UPDATE` in id order in the current transaction; only lockForPosting makes one. */
export type LockedAccounts = ReadonlyMap<string, InternalAccountRow> & { readonly [lockedBrand]: true };

/**
 * Locks accounts for a posting, in id order (the fixed order that keeps concurrent postings free of
 * deadlocks), for a caller that checks them (status, owner) before posting. Unknown ids are
 * `404 ACCOUNT_NOT_FOUND`. Pass the result as `locked` so the posting reads them once.
 */
export async function lockForPosting(tx: Tx, platformId: string, ids: string[]): Promise<LockedAccounts> {
  const locked = await lockExistingForPosting(tx, platformId, ids);
  if (locked.size !== new Set(ids).size)
    throw new ApiError("ACCOUNT_NOT_FOUND", { reason: "A posting names an unknown account." });
  return locked;
}

/** lockForPosting for a caller that tells missing accounts apart itself: those are simply not in the map. */
export async function lockExistingForPosting(
  tx: Tx,
  platformId: string,
  ids: string[],
): Promise<LockedAccounts> {
  const rows = await store.lockAccounts(tx, platformId, [...new Set(ids)].sort());
  return new Map(rows.map((row) => [row.id, row])) as unknown as LockedAccounts;
}

/**
 * Locks the account money sent to `id` lands on when that is the account itself (anything but a rule-based
 * account), reading and locking it in one statement. Undefined for an unknown or rule-based account.
 */
export async function lockReceivingForPosting(
  tx: Tx,
  platformId: string,
  id: string,
): Promise<LockedAccounts | undefined> {
  const row = await store.lockAccountUnlessRuleBased(tx, platformId, id);
  return row ? (new Map([[row.id, row]]) as unknown as LockedAccounts) : undefined;
}

/**
 * Posts balance changes inside the caller's transaction: locks the accounts in id order (unless the
 * caller did, `locked`), checks the available balance under the lock, writes one immutable change per
 * posting with its running balance, updates each account's balance, and enqueues
 * INTERNAL_ACCOUNT.BALANCE_UPDATED, all atomically.
 */
export async function postBalanceChanges(tx: Tx, batch: PostingBatch): Promise<PostingResult> {
  const holds = batch.holds ?? [];
  const ids = [...new Set([...batch.postings, ...holds].map((p) => p.accountId))].sort();
  const locked = batch.locked ?? (await lockForPosting(tx, batch.platformId, ids));
  const missing = ids.find((id) => !locked.has(id));
  if (missing !== undefined) throw new Error(`account ${missing} was not locked for this posting`);
  const net = new Map<string, number>(ids.map((id) => [id, 0]));
  for (const posting of batch.postings) {
    assertMinorUnits(posting.amount);
    assertMinorUnits(posting.fee ?? 0);
    net.set(posting.accountId, (net.get(posting.accountId) ?? 0) + posting.amount);
  }
  const held = new Map<string, number>(ids.map((id) => [id, 0]));
  for (const hold of holds) {
    assertMinorUnits(hold.delta);
    held.set(hold.accountId, (held.get(hold.accountId) ?? 0) + hold.delta);
  }
  for (const id of ids) {
    const account = locked.get(id) as InternalAccountRow;
    const delta = net.get(id) ?? 0;
    const available = account.total_balance - account.held_amount - (held.get(id) ?? 0);
    if (!batch.allowOverdraft && delta < 0 && available + delta < 0) {
      throw new ApiError("INSUFFICIENT_FUNDS", {
        reason: `Account ${id} has ${available} available; ${-delta} needed.`,
      });
    }
    if (!representable(account.total_balance + delta)) throw balanceOutOfRange(id);
    if (account.held_amount + (held.get(id) ?? 0) < 0)
      throw new RangeError(`account ${id} would hold a negative amount`);
  }
  const effectiveAt = batch.effectiveAt ?? batch.now;
  // A closed statement window must never change: no change may be dated before now − lag, nor ahead of now.
  const earliest = batch.now.getTime() - (batch.settlementLagMs ?? 0);
  if (effectiveAt.getTime() < earliest || effectiveAt.getTime() > batch.now.getTime()) {
    throw new RangeError(`effectiveAt ${effectiveAt.toISOString()} is outside [now − settlement lag, now]`);
  }
  const deltas = ids.map((id) => ({ id, net: net.get(id) ?? 0, held: held.get(id) ?? 0 }));
  const changes: store.NewBalanceChange[] = batch.postings.map((posting) => ({
    id: newId("BalanceChange"),
    platform_id: batch.platformId,
    account_id: posting.accountId,
    transaction_id: posting.transactionId,
    amount: posting.amount,
    fee: posting.fee ?? 0,
    effective_at: effectiveAt,
    recorded_at: batch.now,
  }));
  const last = changes.at(-1);
  for (const change of changes.slice(0, -1))
    if ((await store.insertBalanceChange(tx, change, MAX_AMOUNT)).over)
      throw balanceOutOfRange(change.account_id);
  // The last change carries the accounts' update in the same statement; holds alone only update.
  const written = last
    ? await store.insertBalanceChangeAndApply(tx, last, MAX_AMOUNT, deltas, batch.now)
    : { over: false, accounts: await store.applyToAccounts(tx, deltas, batch.now) };
  if (written.over && last) throw balanceOutOfRange(last.account_id);
  const accounts = new Map(written.accounts.map((row) => [row.id, row]));
  await enqueueEventsAtCommit(
    tx,
    ids.map((id) => ({
      platformId: batch.platformId,
      type: "INTERNAL_ACCOUNT.BALANCE_UPDATED" as const,
      data: toInternalAccount(accounts.get(id) as InternalAccountRow),
      now: batch.now,
    })),
  );
  return { changes, accounts };
}
