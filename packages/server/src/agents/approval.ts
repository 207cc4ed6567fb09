import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { JobHandler } from "../core/jobs/jobs.js";
import { executeQuote } from "../payments/execute.js";
import { transitionPayment } from "../payments/lifecycle.js";
import { findPaymentOrThrow } from "../payments/lookup.js";
import { findTransaction, lockTransaction, type TransactionRow } from "../payments/store.js";
import { transferInWithin } from "../payments/transfer-in.js";
import { type Transaction, toTransaction } from "../payments/wire.js";
import { jobNow } from "../platform/clock.js";
import type { ExecutionGate } from "../quotes/execution-gate.js";
import * as quoteStore from "../quotes/store.js";
import { actionNotFound, parseActionId, toAgentAction } from "./actions.js";
import { findAgentOrThrow } from "./agents.js";
import { EXPIRE_PENDING_AGENT_PAYMENT, PLATFORM_APPROVAL_REQUIRED } from "./payments.js";
import type { AgentAction, RejectActionBody } from "./schemas.js";
import * as store from "./store.js";

/** The agent action of a pending payment follows it: APPROVED when executed, FAILED or REJECTED otherwise. */
async function settleAction(
  tx: Tx,
  transactionId: string,
  status: "APPROVED" | "FAILED" | "REJECTED",
  now: Date,
  rejectionReason?: string,
): Promise<void> {
  const action = await store.findActionByTransaction(tx, transactionId);
  if (action?.status === "PENDING_APPROVAL")
    await store.updateAction(tx, action.id, { status, rejection_reason: rejectionReason ?? null, now });
}

export const isAwaitingApproval = (row: TransactionRow) =>
  row.status === "PENDING" && row.pending_reason === PLATFORM_APPROVAL_REQUIRED;

const notPending = (row: TransactionRow) =>
  new ApiError("TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL", {
    reason: `Transaction ${row.id} is ${row.status}${row.pending_reason ? ` (${row.pending_reason})` : ""}; only an agent payment awaiting platform approval can be approved.`,
  });

/** The unapproved payment's quote expired: transaction EXPIRED (QUOTE_EXPIRED), quote EXPIRED, event. */
async function expirePending(tx: Tx, row: TransactionRow, now: Date): Promise<void> {
  await transitionPayment(tx, row, "EXPIRED", { pending_reason: null, failure_reason: "QUOTE_EXPIRED", now });
  if (row.quote_id) await quoteStore.updateQuoteStatus(tx, row.quote_id, { status: "EXPIRED", now });
  await settleAction(tx, row.id, "FAILED", now);
}

/**
 * Locks the quote first, then the transaction: approvals, the agent's execute and the expiry job all take
 * the quote row first, so concurrent approvals queue there and the second finds the payment executed.
 */
async function lockPending(tx: Tx, platformId: string, row: TransactionRow) {
  const quote = row.quote_id ? await quoteStore.lockQuote(tx, platformId, row.quote_id) : undefined;
  const locked = await lockTransaction(tx, platformId, row.id);
  return { quote, locked };
}

type Outcome = { approved: Transaction } | { expired: Date };

/**
 * `POST /transactions/{transactionId}/approve`: executes an agent payment through payments' quote execution
 * (gates, funds check under the ledger locks, payout scheduling), moving the pending transaction in place to
 * COMPLETED or PROCESSING. Not awaiting approval → `409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL`. A refused
 * execution (INSUFFICIENT_FUNDS, a gate) rolls back and the payment stays pending; a quote expired meanwhile
 * makes it EXPIRED, committed before `400 QUOTE_EXPIRED`.
 */
export async function approveTransaction(
  deps: Deps,
  caller: Caller,
  rawId: string,
  gates: readonly ExecutionGate[],
): Promise<Transaction> {
  const found = await findPaymentOrThrow(deps.db, caller, rawId);
  if (!isAwaitingApproval(found)) throw notPending(found);
  const outcome = await deps.db.transaction(async (tx): Promise<Outcome> => {
    const { quote, locked } = await lockPending(tx, caller.platformId, found);
    if (!locked || !quote || !isAwaitingApproval(locked)) throw notPending(locked ?? found);
    const now = nowFor(deps, caller);
    if (now >= quote.expires_at) {
      await expirePending(tx, locked, now);
      return { expired: quote.expires_at };
    }
    await executeQuote(tx, { deps, caller, now, gates }, quote, { pending: locked });
    await settleAction(tx, locked.id, "APPROVED", now);
    const settled = await findTransaction(tx, caller.platformId, locked.id);
    if (!settled) throw new Error(`approved transaction ${locked.id} vanished`);
    return { approved: toTransaction(settled) };
  });
  if ("expired" in outcome)
    throw new ApiError("QUOTE_EXPIRED", {
      reason: `The quote of transaction ${found.id} expired at ${outcome.expired.toISOString()} before approval; the payment is EXPIRED.`,
    });
  return outcome.approved;
}

/** At the quote's expiry, an agent payment still awaiting approval becomes EXPIRED (nothing else changes). */
const expireJob: JobHandler = async (context) => {
  const { deps, job, finish } = context;
  await deps.db.transaction(async (tx) => {
    const now = await jobNow(tx, context);
    const row = await findTransaction(tx, job.platformId, String(job.payload.transactionId));
    if (row && isAwaitingApproval(row)) {
      const { quote, locked } = await lockPending(tx, job.platformId, row);
      if (locked && quote && isAwaitingApproval(locked) && now >= quote.expires_at)
        await expirePending(tx, locked, now);
    }
    await finish(tx);
  });
};

export const agentJobHandlers = (): Record<string, JobHandler> => ({
  [EXPIRE_PENDING_AGENT_PAYMENT]: expireJob,
});

/** One action of one of the platform's agents; a malformed, foreign or unknown id is `404 NOT_FOUND`. */
async function findAgentAction(deps: Deps, caller: Caller, rawAgentId: string, rawActionId: string) {
  const agent = await findAgentOrThrow(deps.db, caller, rawAgentId, { includeDeleted: true });
  const id = parseActionId(rawActionId);
  const row = id ? await store.findAction(deps.db, caller.platformId, id) : undefined;
  if (!row || row.agent_id !== agent.id) throw actionNotFound(rawActionId);
  return row;
}

const actionNotPending = (row: store.AgentActionRow) =>
  new ApiError("CONFLICT", {
    reason: `Agent action ${row.id} is ${row.status}; only an action in PENDING_APPROVAL can be approved or rejected.`,
  });

async function reloadAction(deps: Deps, caller: Caller, id: string): Promise<AgentAction> {
  const row = await store.findAction(deps.db, caller.platformId, id);
  if (!row) throw new Error(`agent action ${id} vanished`);
  return toAgentAction(deps.db, row, nowFor(deps, caller));
}

/**
 * `POST /agents/{agentId}/actions/{actionId}/approve`: the same approval as `POST /transactions/{id}/approve`
 * on the action's payment (executed in place; refused executions leave it pending; an expired quote makes
 * it FAILED before `400 QUOTE_EXPIRED`). Not PENDING_APPROVAL → `409 CONFLICT`.
 */
export async function approveAction(
  deps: Deps,
  caller: Caller,
  rawAgentId: string,
  rawActionId: string,
  gates: readonly ExecutionGate[],
): Promise<AgentAction> {
  const row = await findAgentAction(deps, caller, rawAgentId, rawActionId);
  if (row.status !== "PENDING_APPROVAL") throw actionNotPending(row);
  if (row.type === "TRANSFER_IN" && !row.transaction_id) await approveTransferIn(deps, caller, row);
  else if (row.transaction_id) await approveTransaction(deps, caller, row.transaction_id, gates);
  else throw actionNotPending(row);
  return reloadAction(deps, caller, row.id);
}

/**
 * A waiting transfer in moves now, with the platform's authority, in one transaction with its action
 * (APPROVED, or FAILED when the sandbox fails it); a refused transfer (a `400`) leaves it waiting.
 */
async function approveTransferIn(deps: Deps, caller: Caller, row: store.AgentActionRow): Promise<void> {
  const details = row.transfer_details;
  if (!details) throw new Error(`transfer-in action ${row.id} has no transfer details`);
  await deps.db.transaction(async (tx) => {
    const locked = await store.lockAction(tx, caller.platformId, row.id);
    if (locked?.status !== "PENDING_APPROVAL" || locked.transaction_id) throw actionNotPending(locked ?? row);
    const now = nowFor(deps, caller);
    const moved = await transferInWithin(
      tx,
      caller,
      {
        source: { accountId: details.sourceAccountId },
        destination: { accountId: details.destinationAccountId },
        amount: details.amount,
      },
      now,
    );
    const status = moved.status === "FAILED" ? "FAILED" : "APPROVED";
    await store.updateAction(tx, row.id, { status, transaction_id: moved.id, now });
  });
}

/**
 * `POST /agents/{agentId}/actions/{actionId}/reject`: the action becomes REJECTED (with the optional
 * `reason` as `rejectionReason`), its pending payment FAILED and its quote FAILED; no money moves.
 */
export async function rejectAction(
  deps: Deps,
  caller: Caller,
  rawAgentId: string,
  rawActionId: string,
  body: RejectActionBody | undefined,
): Promise<AgentAction> {
  const row = await findAgentAction(deps, caller, rawAgentId, rawActionId);
  if (row.status !== "PENDING_APPROVAL") throw actionNotPending(row);
  if (row.type === "TRANSFER_IN" && !row.transaction_id) {
    await rejectTransferIn(deps, caller, row, body?.reason);
    return reloadAction(deps, caller, row.id);
  }
  if (!row.transaction_id) throw actionNotPending(row);
  const transactionId = row.transaction_id;
  await deps.db.transaction(async (tx) => {
    const found = await findTransaction(tx, caller.platformId, transactionId);
    if (!found) throw new Error(`transaction ${transactionId} of action ${row.id} vanished`);
    const { quote, locked } = await lockPending(tx, caller.platformId, found);
    const action = await store.findActionByTransaction(tx, transactionId);
    if (!locked || !quote || !isAwaitingApproval(locked) || action?.status !== "PENDING_APPROVAL")
      throw actionNotPending(action ?? row);
    await failRejected(tx, locked, quote.id, body?.reason, nowFor(deps, caller));
  });
  return reloadAction(deps, caller, row.id);
}

/** A rejected pending payment: transaction and quote FAILED, its action REJECTED; no money moves. */
async function failRejected(
  tx: Tx,
  locked: TransactionRow,
  quoteId: string,
  reason: string | undefined,
  now: Date,
): Promise<void> {
  await transitionPayment(tx, locked, "FAILED", { pending_reason: null, now });
  await quoteStore.updateQuoteStatus(tx, quoteId, { status: "FAILED", now });
  await settleAction(tx, locked.id, "REJECTED", now, reason);
}

/**
 * `POST /transactions/{transactionId}/reject` (the hosted API's rejectPendingPayment), the twin of the approve:
 * an agent payment awaiting platform approval becomes FAILED, its quote FAILED and its action REJECTED with the
 * optional `reason`. Not awaiting approval → `409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL`.
 */
export async function rejectTransaction(
  deps: Deps,
  caller: Caller,
  rawId: string,
  body: RejectActionBody | undefined,
): Promise<Transaction> {
  const found = await findPaymentOrThrow(deps.db, caller, rawId);
  if (!isAwaitingApproval(found)) throw notPending(found);
  return deps.db.transaction(async (tx) => {
    const { quote, locked } = await lockPending(tx, caller.platformId, found);
    if (!locked || !quote || !isAwaitingApproval(locked)) throw notPending(locked ?? found);
    await failRejected(tx, locked, quote.id, body?.reason, nowFor(deps, caller));
    const rejected = await findTransaction(tx, caller.platformId, locked.id);
    if (!rejected) throw new Error(`rejected transaction ${locked.id} vanished`);
    return toTransaction(rejected);
  });
}

/** A waiting transfer in is REJECTED: nothing had moved, nothing moves. */
async function rejectTransferIn(
  deps: Deps,
  caller: Caller,
  row: store.AgentActionRow,
  reason: string | undefined,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const locked = await store.lockAction(tx, caller.platformId, row.id);
    if (locked?.status !== "PENDING_APPROVAL" || locked.transaction_id) throw actionNotPending(locked ?? row);
    const now = nowFor(deps, caller);
    await store.updateAction(tx, row.id, { status: "REJECTED", rejection_reason: reason ?? null, now });
  });
}
