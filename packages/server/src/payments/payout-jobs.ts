import { randomBytes } from "node:crypto";
import type { Tx } from "../core/db/db.js";
import type { JobContext, JobHandler } from "../core/jobs/jobs.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import { money } from "../core/money.js";
import { postBalanceChanges } from "../ledger/ledger.js";
import { jobNow } from "../platform/clock.js";
import * as quotes from "../quotes/store.js";
import { enqueueEvents } from "../webhooks/outbox.js";
import { transitionPayment } from "./lifecycle.js";
import type { Refund } from "./refunds.js";
import { lockTransaction, type TransactionRow } from "./store.js";
import { toTransaction } from "./wire.js";

export const PAYOUT_SETTLE = "payout.settle";
export const PAYOUT_FAIL = "payout.fail";
export const PAYOUT_RETURN = "payout.return";

export interface PayoutJob {
  kind: string;
  runAt: Date;
  payload: Record<string, unknown>;
}

/** A settled 005 payout comes back this long after settlement (sandbox; docs/decisions.md "Payouts"). */
export const RETURN_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Runs `work` on the job's transaction under its row lock, only while it is still in `expected` status:
 * a job run twice (a crash after commit, before the lease ends) finds it moved on and only finishes.
 */
async function onTransaction(
  context: JobContext,
  expected: string,
  work: (tx: Tx, row: TransactionRow, now: Date) => Promise<unknown>,
): Promise<void> {
  const { deps, job } = context;
  await deps.db.transaction(async (tx) => {
    const now = await jobNow(tx, context);
    const row = await lockTransaction(tx, job.platformId, String(job.payload.transactionId));
    if (row && row.status === expected) await work(tx, row, now);
    await context.finish(tx);
  });
}

/** A sandbox on-chain transaction hash: 0x + 64 random hex digits (docs/decisions.md "Wallet payouts"). */
const transactionHash = () => `0x${randomBytes(32).toString("hex")}`;

/**
 * PROCESSING → COMPLETED (settledAt, OUTGOING_PAYMENT.COMPLETED); a wallet payout (payload.network)
 * also gets `destination.onChainTransaction`; a 005 payout schedules its return (payload.returnAfterMs).
 */
const settle: JobHandler = (context) =>
  onTransaction(context, "PROCESSING", async (tx, row, now) => {
    const { network } = context.job.payload;
    const destination =
      typeof network === "string"
        ? { ...row.destination, onChainTransaction: { transactionHash: transactionHash(), network } }
        : row.destination;
    await transitionPayment(tx, row, "COMPLETED", { destination, settled_at: now, now });
    if (row.quote_id) await quotes.updateQuoteStatus(tx, row.quote_id, { status: "COMPLETED", now });
    const returnAfterMs = context.job.payload.returnAfterMs;
    if (typeof returnAfterMs === "number") {
      const runAt = new Date(now.getTime() + returnAfterMs);
      const payload = { transactionId: row.id };
      await scheduleJob(tx, { platformId: row.platform_id, kind: PAYOUT_RETURN, payload, runAt, now });
    }
  });

/**
 * FAILED with `failureReason`, and the debit refunded on the same transaction: +principal (fee 0) and
 * +fee (fee positive), the refund object COMPLETED; or, when the refund fails too (007), no refund
 * change and the refund object FAILED. Status, money and events commit in this one transaction.
 */
export async function failPayout(
  tx: Tx,
  row: TransactionRow,
  failure: { reason: string; refundFails: boolean; refundReason?: string },
  now: Date,
): Promise<TransactionRow> {
  // sent − fees, not received_amount: a wallet payout receives another currency (payouts.ts).
  const fee = row.fees;
  const principal = (row.sent_amount ?? 0) - fee;
  // A realtime-funded payout debited no internal account: its refund goes back to the funding source.
  const funded = row.source.sourceType === "REALTIME_FUNDING";
  if (!failure.refundFails && !funded) {
    await postBalanceChanges(tx, {
      platformId: row.platform_id,
      now,
      postings: [
        { accountId: row.account_id, amount: principal, fee: 0, transactionId: row.id },
        ...(fee > 0 ? [{ accountId: row.account_id, amount: fee, fee, transactionId: row.id }] : []),
      ],
    });
  }
  const refund: Refund = {
    transactionId: row.id,
    reference: `RF-${row.id.slice(-12).toUpperCase()}`,
    amount: money(principal + fee, row.currency),
    status: failure.refundFails ? "FAILED" : "COMPLETED",
    reason: failure.refundReason ?? failure.reason,
    initiatedAt: now.toISOString(),
    ...(failure.refundFails ? {} : { settledAt: now.toISOString() }),
  };
  const failed = await transitionPayment(tx, row, "FAILED", {
    failure_reason: failure.reason,
    details: { ...row.details, refund },
    now,
  });
  if (row.quote_id) await quotes.updateQuoteStatus(tx, row.quote_id, { status: "FAILED", now });
  const { settledAt: _settledAt, ...initiated } = refund;
  const asPending = {
    ...failed,
    details: { ...failed.details, refund: { ...initiated, status: "PENDING" } },
  };
  // The refund's own progress: not a change of the payment's status (payments/lifecycle.ts).
  await enqueueEvents(tx, [
    {
      platformId: row.platform_id,
      type: "OUTGOING_PAYMENT.REFUND_PENDING",
      data: toTransaction(asPending),
      now,
    },
    {
      platformId: row.platform_id,
      type: `OUTGOING_PAYMENT.REFUND_${refund.status}`,
      data: toTransaction(failed),
      now,
    },
  ]);
  return failed;
}

const fail: JobHandler = (context) =>
  onTransaction(context, "PROCESSING", (tx, row, now) =>
    failPayout(
      tx,
      row,
      {
        reason: String(context.job.payload.failureReason),
        refundFails: context.job.payload.refundFails === true,
      },
      now,
    ),
  );

/** A settled payout returned by the receiving bank: FAILED PAYOUT_RETURNED, refunded. */
const returned: JobHandler = (context) =>
  onTransaction(context, "COMPLETED", (tx, row, now) =>
    failPayout(tx, row, { reason: "PAYOUT_RETURNED", refundFails: false }, now),
  );

export const payoutHandlers: Record<string, JobHandler> = {
  [PAYOUT_SETTLE]: settle,
  [PAYOUT_FAIL]: fail,
  [PAYOUT_RETURN]: returned,
};
