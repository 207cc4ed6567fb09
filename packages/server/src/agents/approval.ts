import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor, walletVerificationThreshold } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { JobHandler } from "../core/jobs/jobs.js";
import { findPlatform } from "../platform/store.js";
import { settleQuote } from "../quotes/settle.js";
import * as quoteStore from "../quotes/store.js";
import {
  deleteTransaction,
  findTransaction,
  type TransactionRow,
  updateTransaction,
} from "../transactions/store.js";
import { findTransactionOrThrow, type Transaction, toTransaction } from "../transactions/transactions.js";
import { enqueueEvent } from "../webhooks/outbox.js";
import { EXPIRE_PENDING_AGENT_PAYMENT, PLATFORM_APPROVAL_REQUIRED } from "./payments.js";

const isAwaitingApproval = (row: TransactionRow) =>
  row.status === "PENDING" && row.pending_reason === PLATFORM_APPROVAL_REQUIRED;

const notPending = (row: TransactionRow) =>
  new ApiError("TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL", {
    reason: `Transaction ${row.id} is ${row.status}${row.pending_reason ? ` (${row.pending_reason})` : ""}; only an agent payment awaiting platform approval can be approved.`,
  });

/** The unapproved payment's quote expired: transaction EXPIRED (QUOTE_EXPIRED), quote EXPIRED, event. */
async function expirePending(tx: Tx, row: TransactionRow, now: Date): Promise<TransactionRow> {
  const { platform_customer_id: _, ...columns } = row as TransactionRow & { platform_customer_id?: unknown };
  const expired = {
    ...columns,
    status: "EXPIRED",
    pending_reason: null,
    failure_reason: "QUOTE_EXPIRED",
    updated_at: now,
  };
  await updateTransaction(tx, expired);
  if (row.quote_id) await quoteStore.updateQuoteStatus(tx, row.quote_id, { status: "EXPIRED", now });
  await enqueueEvent(tx, {
    platformId: row.platform_id,
    type: "OUTGOING_PAYMENT.EXPIRED",
    data: toTransaction(expired),
    now,
  });
  return expired;
}

/**
 * Locks the quote first, then the transaction: approvals, the agent's execute and the expiry job all take
 * the quote row first, so concurrent approvals queue there and the second finds the payment executed.
 */
async function lockPending(tx: Tx, platformId: string, row: TransactionRow) {
  const quote = row.quote_id ? await quoteStore.lockQuote(tx, platformId, row.quote_id) : undefined;
  const locked = await findTransaction(tx, platformId, row.id, true);
  return { quote, locked };
}

type Outcome = { approved: Transaction } | { expired: Date };

/**
 * `POST /transactions/{transactionId}/approve`: executes an agent payment through the quote execution path
 * (gates, funds check under the ledger locks, payout scheduling), completing the pending transaction under
 * its own id. Not awaiting approval → `409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL`. A refused execution
 * (INSUFFICIENT_FUNDS, a gate) rolls back and the payment stays pending; a quote expired meanwhile makes it
 * EXPIRED, committed before `400 QUOTE_EXPIRED`.
 */
export async function approveTransaction(deps: Deps, caller: Caller, rawId: string): Promise<Transaction> {
  const found = await findTransactionOrThrow(deps.db, caller, rawId);
  if (!isAwaitingApproval(found)) throw notPending(found);
  const outcome = await deps.db.transaction(async (tx): Promise<Outcome> => {
    const { quote, locked } = await lockPending(tx, caller.platformId, found);
    if (!locked || !quote || !isAwaitingApproval(locked)) throw notPending(locked ?? found);
    const now = nowFor(deps, caller);
    if (now >= quote.expires_at) {
      await expirePending(tx, locked, now);
      return { expired: quote.expires_at };
    }
    await deleteTransaction(tx, locked.id);
    await settleQuote(tx, caller, quote, now, walletVerificationThreshold(deps), {
      id: locked.id,
      createdAt: locked.created_at,
    });
    const settled = await findTransaction(tx, caller.platformId, locked.id);
    if (!settled) throw new Error(`approved transaction ${locked.id} was not re-created`);
    return { approved: toTransaction(settled) };
  });
  if ("expired" in outcome)
    throw new ApiError("QUOTE_EXPIRED", {
      reason: `The quote of transaction ${found.id} expired at ${outcome.expired.toISOString()} before approval; the payment is EXPIRED.`,
    });
  return outcome.approved;
}

/** At the quote's expiry, an agent payment still awaiting approval becomes EXPIRED (nothing else changes). */
const expireJob: JobHandler = async ({ deps, job, finish }) => {
  await deps.db.transaction(async (tx) => {
    const platform = await findPlatform(tx, job.platformId);
    const now = new Date(deps.clock.now().getTime() + (platform?.clock_offset_ms ?? 0));
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
