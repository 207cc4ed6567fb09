import type { JobHandler } from "../core/jobs/jobs.js";
import { postBalanceChanges } from "../ledger/ledger.js";
import { findPlatform } from "../platform/store.js";
import { findTransaction, updateTransaction } from "../transactions/store.js";
import { toTransaction } from "../transactions/transactions.js";
import { enqueueEvent } from "../webhooks/outbox.js";

export const TRANSFER_IN_RETURN = "transfer-in.return";
/** A returned 005 transfer comes back about 30 seconds after it settles (conventions §3.6). */
export const TRANSFER_RETURN_AFTER_MS = 30_000;

/**
 * A settled 005 transfer-in is returned: FAILED PAYOUT_RETURNED and a reversing second change on the
 * same transaction (the money may be spent: the balance may go below zero, as a real return would).
 * Idempotent: only a COMPLETED row, under its lock, is returned.
 */
const returnTransferIn: JobHandler = async ({ deps, job, finish }) => {
  await deps.db.transaction(async (tx) => {
    const platform = await findPlatform(tx, job.platformId);
    const now = new Date(deps.clock.now().getTime() + (platform?.clock_offset_ms ?? 0));
    const row = await findTransaction(tx, job.platformId, String(job.payload.transactionId), true);
    if (row && row.status === "COMPLETED") {
      const posting = {
        accountId: row.account_id,
        amount: -(row.received_amount ?? 0),
        transactionId: row.id,
      };
      await postBalanceChanges(tx, {
        platformId: row.platform_id,
        now,
        postings: [posting],
        allowOverdraft: true,
      });
      const returned = { ...row, status: "FAILED", failure_reason: "PAYOUT_RETURNED", updated_at: now };
      await updateTransaction(tx, returned);
      const data = toTransaction(returned);
      await enqueueEvent(tx, { platformId: row.platform_id, type: "INCOMING_PAYMENT.FAILED", data, now });
    }
    await finish(tx);
  });
};

export const transferJobHandlers: Record<string, JobHandler> = { [TRANSFER_IN_RETURN]: returnTransferIn };
