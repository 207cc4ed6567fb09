import type { JobHandler } from "../core/jobs/jobs.js";
import { jobNow } from "../platform/clock.js";
import { returnIncoming } from "./returns.js";
import { lockTransaction } from "./store.js";

export const TRANSFER_IN_RETURN = "transfer-in.return";
/** A returned 005 transfer comes back about 30 seconds after it settles (conventions §3.6). */
export const TRANSFER_RETURN_AFTER_MS = 30_000;

/**
 * A settled 005 transfer-in is returned: FAILED PAYOUT_RETURNED and a reversing second change on the
 * same transaction (the money may be spent: the balance may go below zero, as a real return would).
 * Idempotent: only a COMPLETED row, under its lock, is returned.
 */
const returnTransferIn: JobHandler = async (context) => {
  const { deps, job, finish } = context;
  await deps.db.transaction(async (tx) => {
    const now = await jobNow(tx, context);
    const row = await lockTransaction(tx, job.platformId, String(job.payload.transactionId));
    if (row && row.status === "COMPLETED") {
      await returnIncoming(tx, row, now);
    }
    await finish(tx);
  });
};

export const transferJobHandlers: Record<string, JobHandler> = { [TRANSFER_IN_RETURN]: returnTransferIn };
