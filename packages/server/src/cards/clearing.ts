import type { Tx } from "../core/db/db.js";
import { together } from "../core/db/scope.js";
import { type Deps, nowFor } from "../core/deps.js";
import type { Caller } from "../core/http/context.js";
import { lockForPosting } from "../ledger/ledger.js";
import {
  type CardTransactionRow,
  cardTransactionOfCard,
  effectiveAtOf,
  lockCardTransaction,
  postCardMoney,
  precondition,
  type SimulationResult,
  saveAndAnnounce,
  simulationResult,
} from "./card-transactions.js";
import { findCardAndCardholderOrThrow } from "./issue.js";
import type { Cardholder } from "./store.js";

/**
 * Applies one clearing of `amount` to an open row (conventions §6.4), as one balance change (fee 0)
 * on its funding account dated `effectiveAt`:
 * - `0` ends the row: VOIDED before any clearing (expiry), else SETTLED, releasing what is still held.
 * - a debit shrinks the hold by the amount (a clearing above the hold is an extra pull); reaching the
 *   authorized amount settles it and releases the rest. What the account cannot cover is not debited,
 *   and the row ends in EXCEPTION, as does a sandbox `006` purchase at its first clearing.
 * - a credit (credit authorization) is credited in full.
 */
export async function applyClearing(
  tx: Tx,
  deps: Deps,
  row: CardTransactionRow,
  clearing: { amount: number; now: Date; effectiveAt: Date },
  /** Read with the card, so the row's event is built without reading the row again. */
  cardholder?: Cardholder,
): Promise<CardTransactionRow> {
  const { amount, now, effectiveAt } = clearing;
  const base = { platformId: row.platform_id, now, effectiveAt };
  const updated: CardTransactionRow = { ...row };
  // The row's update and its money need nothing from each other: both go out in one round trip.
  const saveWith = async (money: Promise<void>) => {
    await together(money, saveAndAnnounce(tx, updated, now, undefined, cardholder));
    return updated;
  };
  if (amount === 0) {
    updated.status = row.status === "AUTHORIZED" ? "VOIDED" : "SETTLED";
    updated.hold_amount = 0;
    return saveWith(
      postCardMoney(tx, deps, { ...base, holds: [{ accountId: row.account_id, delta: -row.hold_amount }] }),
    );
  }
  const settled = (row.settled_amount ?? 0) + amount;
  const reachesAuthorized = settled >= row.authorized_amount;
  updated.settled_amount = settled;
  updated.settlement_count = row.settlement_count + 1;
  updated.settlement_total = row.settlement_total + amount;
  if (row.direction === "CREDIT") {
    updated.status = reachesAuthorized ? "SETTLED" : "PARTIALLY_SETTLED";
    return saveWith(
      postCardMoney(tx, deps, {
        ...base,
        postings: [{ accountId: row.account_id, amount, fee: 0, transactionId: row.id }],
      }),
    );
  }
  const locked = await lockForPosting(tx, row.platform_id, [row.account_id]);
  const account = locked.get(row.account_id);
  if (!account) throw new Error(`funding account ${row.account_id} vanished`);
  // This row's own hold is money set aside for it, so it counts towards what the account covers.
  const coverable = Math.max(0, account.total_balance - account.held_amount + row.hold_amount);
  const debit = Math.min(amount, coverable);
  const exception = debit < amount || row.sandbox_outcome === "EXCEPTION_ON_CLEARING";
  updated.status = exception ? "EXCEPTION" : reachesAuthorized ? "SETTLED" : "PARTIALLY_SETTLED";
  const release =
    updated.status === "PARTIALLY_SETTLED" ? Math.min(row.hold_amount, amount) : row.hold_amount;
  const extraPull = Math.max(0, amount - row.hold_amount);
  if (extraPull > 0) {
    updated.pull_count = row.pull_count + 1;
    updated.pull_total = row.pull_total + extraPull;
  }
  updated.hold_amount = row.hold_amount - release;
  updated.sandbox_outcome = null;
  return saveWith(
    postCardMoney(tx, deps, {
      ...base,
      holds: [{ accountId: row.account_id, delta: -release }],
      postings: [{ accountId: row.account_id, amount: -debit, fee: 0, transactionId: row.id }],
      // The network has moved the money: the debit is capped at what the account covers, not refused.
      overdraft: true,
      locked,
    }),
  );
}

/** `simulate/clearing`: the parent must be AUTHORIZED or PARTIALLY_SETTLED (else `409 CONFLICT`). */
export async function clearCardTransaction(
  deps: Deps,
  caller: Caller,
  rawCardId: string,
  body: { cardTransactionId: string; amount: number; effectiveAt?: string },
): Promise<SimulationResult> {
  // effectiveAt is a body check: 400 before the card's 404 and the row's 409 (conventions §1.7).
  const now = nowFor(deps, caller);
  const effectiveAt = effectiveAtOf(deps, now, body.effectiveAt);
  return deps.db.transaction(async (tx) => {
    // Both reads in one round trip; the card's 404 still comes first (it is the first to fail).
    const [{ card, cardholder }, found] = await together(
      findCardAndCardholderOrThrow(tx, caller, rawCardId),
      lockCardTransaction(tx, caller, body.cardTransactionId),
    );
    const row = cardTransactionOfCard(card, body.cardTransactionId, found);
    if (row.status !== "AUTHORIZED" && row.status !== "PARTIALLY_SETTLED")
      throw precondition(
        `Card transaction ${row.id} is ${row.status}; a clearing needs AUTHORIZED or PARTIALLY_SETTLED.`,
      );
    await applyClearing(tx, deps, row, { amount: body.amount, now, effectiveAt }, cardholder);
    return simulationResult(row);
  });
}
