import { type Deps, nowFor } from "../core/deps.js";
import type { Caller } from "../core/http/context.js";
import { newId } from "../core/ids.js";
import { lockAccounts } from "../ledger/store.js";
import {
  type CardTransactionRow,
  effectiveAtOf,
  findCardTransactionOrThrow,
  insertAndAnnounce,
  newIssuerToken,
  postCardMoney,
  precondition,
  type SimulationResult,
  saveAndAnnounce,
  simulationResult,
} from "./card-transactions.js";
import { findCardOrThrow } from "./issue.js";

/**
 * `simulate/return` (conventions §6.4): a merchant return of a cleared purchase. It opens a refund row
 * (CREDIT, SETTLED, `originalTransactionId`) with one +amount change on the purchase's account; the
 * purchase keeps its status, its `refundedAmount` grows, and CARD_TRANSACTION.SETTLED fires for both.
 */
export async function returnPurchase(
  deps: Deps,
  caller: Caller,
  rawCardId: string,
  body: { cardTransactionId: string; amount: number; effectiveAt?: string },
): Promise<SimulationResult> {
  // effectiveAt is a body check: 400 before the card's 404 and the purchase's 409 (conventions §1.7).
  const now = nowFor(deps, caller);
  const effectiveAt = effectiveAtOf(deps, now, body.effectiveAt);
  return deps.db.transaction(async (tx) => {
    // Locks in authorization's order (card, then account) before the refund row's INSERT: its foreign
    // keys take KEY SHARE locks on both, which a later FOR UPDATE would turn into a deadlock with a
    // concurrent return or authorization on the same card or account.
    const card = await findCardOrThrow(tx, caller, rawCardId, true);
    const purchase = await findCardTransactionOrThrow(tx, caller, card, body.cardTransactionId);
    if (purchase.direction !== "DEBIT" || purchase.original_transaction_id !== null)
      throw precondition(
        `Card transaction ${purchase.id} is not a purchase; only purchases can be returned.`,
      );
    const settled = purchase.settled_amount ?? 0;
    const refunded = purchase.refunded_amount ?? 0;
    if (settled === 0) throw precondition(`Purchase ${purchase.id} has no clearing to return.`);
    if (body.amount > settled - refunded)
      throw precondition(
        `Purchase ${purchase.id} has ${settled - refunded} left to return; ${body.amount} asked.`,
      );
    await lockAccounts(tx, purchase.platform_id, [purchase.account_id]);
    const refund: CardTransactionRow = {
      ...purchase,
      id: newId("CardTransaction"),
      issuer_transaction_token: newIssuerToken(),
      status: "SETTLED",
      direction: "CREDIT",
      authorized_amount: body.amount,
      hold_amount: 0,
      settled_amount: body.amount,
      refunded_amount: null,
      original_transaction_id: purchase.id,
      card_declined_reason: null,
      sandbox_outcome: null,
      pull_count: 0,
      pull_total: 0,
      pull_pending_count: 0,
      settlement_count: 1,
      settlement_total: body.amount,
      refund_count: 0,
      refund_total: 0,
      authorized_at: now,
      last_event_at: now,
      created_at: now,
      updated_at: now,
    };
    await insertAndAnnounce(tx, refund, now);
    await postCardMoney(tx, deps, {
      platformId: purchase.platform_id,
      now,
      effectiveAt,
      postings: [{ accountId: purchase.account_id, amount: body.amount, fee: 0, transactionId: refund.id }],
    });
    await saveAndAnnounce(
      tx,
      {
        ...purchase,
        refunded_amount: refunded + body.amount,
        refund_count: purchase.refund_count + 1,
        refund_total: purchase.refund_total + body.amount,
      },
      now,
      "SETTLED",
    );
    return simulationResult(refund);
  });
}

/**
 * `simulate/return_reversal` with the refund row's id (conventions §6.4): one −amount change on the
 * refund row, which becomes VOIDED (event VOIDED); the purchase's `refundedAmount` shrinks (event SETTLED).
 */
export async function reverseReturn(
  deps: Deps,
  caller: Caller,
  rawCardId: string,
  body: { cardTransactionId: string },
): Promise<SimulationResult> {
  return deps.db.transaction(async (tx) => {
    const card = await findCardOrThrow(tx, caller, rawCardId);
    const refund = await findCardTransactionOrThrow(tx, caller, card, body.cardTransactionId);
    if (refund.original_transaction_id === null)
      throw precondition(`Card transaction ${refund.id} is not a refund row; a return reversal takes one.`);
    const purchase = await findCardTransactionOrThrow(tx, caller, card, refund.original_transaction_id);
    const refunded = purchase.refunded_amount ?? 0;
    if (refund.status !== "SETTLED" || refunded === 0)
      throw precondition(`Refund ${refund.id} has no posted return to reverse.`);
    const amount = refund.settled_amount ?? 0;
    const now = nowFor(deps, caller);
    await postCardMoney(tx, deps, {
      platformId: refund.platform_id,
      now,
      postings: [{ accountId: refund.account_id, amount: -amount, fee: 0, transactionId: refund.id }],
      // The network takes the credit back whether or not the balance still holds it.
      overdraft: true,
    });
    await saveAndAnnounce(tx, { ...refund, status: "VOIDED" }, now);
    await saveAndAnnounce(
      tx,
      {
        ...purchase,
        refunded_amount: refunded - amount,
        refund_count: purchase.refund_count - 1,
        refund_total: purchase.refund_total - amount,
      },
      now,
      "SETTLED",
    );
    return simulationResult(refund);
  });
}
