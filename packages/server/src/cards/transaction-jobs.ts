import type { JobContext, JobHandler } from "../core/jobs/jobs.js";
import { jobNow } from "../platform/clock.js";
import { type CardTransactionRow, postCardMoney, saveAndAnnounce } from "./card-transactions.js";
import { applyClearing } from "./clearing.js";
import { findCardTransaction, updateCardTransaction } from "./transaction-store.js";

export const EXPIRE_AUTHORIZATION = "cards.expire-authorization";
export const LAND_DELAYED_PULL = "cards.land-delayed-pull";
/** An AUTHORIZED row with no clearing expires this long after authorizedAt (conventions §6.4). */
export const AUTHORIZATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** A `005` authorization's funding pull and hold land this long after approval (conventions §6.5). */
export const DELAYED_PULL_MS = 30_000;

/** Runs `work` on the job's card transaction under its lock, in one transaction with the job's finish. */
async function onCardTransaction(
  context: JobContext,
  work: (row: CardTransactionRow, now: Date, tx: Parameters<JobContext["finish"]>[0]) => Promise<void>,
): Promise<void> {
  const { deps, job } = context;
  await deps.db.transaction(async (tx) => {
    const found = await findCardTransaction(tx, job.platformId, String(job.payload.cardTransactionId), true);
    if (found) {
      const { platform_customer_id: _, ...row } = found;
      await work(row, await jobNow(tx, context), tx);
    }
    await context.finish(tx);
  });
}

/** Still AUTHORIZED (nothing cleared) at its expiry: VOIDED, hold released, like a `0` clearing. */
const expire: JobHandler = (context) =>
  onCardTransaction(context, async (row, now, tx) => {
    if (row.status !== "AUTHORIZED" || row.settled_amount !== null) return;
    await applyClearing(tx, context.deps, row, { amount: 0, now, effectiveAt: now });
  });

/** A `005` pull lands: the hold is placed for what is still open, and AUTHORIZED fires (conventions §6.5). */
const landPull: JobHandler = (context) =>
  onCardTransaction(context, async (row, now, tx) => {
    if (row.pull_pending_count === 0) return;
    const open = row.status === "AUTHORIZED" || row.status === "PARTIALLY_SETTLED";
    if (!open) {
      // The row ended before its pull landed: nothing to hold and no transition to announce.
      await updateCardTransaction(tx, { ...row, pull_pending_count: 0, updated_at: now });
      return;
    }
    const hold = Math.max(0, row.authorized_amount - (row.settled_amount ?? 0));
    // The pull is the hold it places: a clearing that came first already counted its part as a pull.
    const updated = {
      ...row,
      pull_pending_count: 0,
      pull_count: row.pull_count + (hold > 0 ? 1 : 0),
      pull_total: row.pull_total + hold,
      hold_amount: row.hold_amount + hold,
    };
    await postCardMoney(tx, context.deps, {
      platformId: row.platform_id,
      now,
      holds: [{ accountId: row.account_id, delta: hold }],
    });
    await saveAndAnnounce(tx, updated, now, "AUTHORIZED");
  });

/** Job kinds of card transactions, registered in src/jobs.ts. */
export function cardTransactionJobHandlers(): Record<string, JobHandler> {
  return { [EXPIRE_AUTHORIZATION]: expire, [LAND_DELAYED_PULL]: landPull };
}
