import type { JobHandler } from "../core/jobs/jobs.js";
import { jobNow } from "../platform/clock.js";
import { revokeCardKeys } from "../wallet-auth/delegated-keys.js";
import { cardEvent } from "./events.js";
import * as store from "./store.js";

export const CARD_ISSUANCE = "cards.issuance";

/**
 * The sandbox issuer's answer for a PROCESSING card: ACTIVE, or CLOSED with ISSUER_REJECTED, each with
 * CARD.STATUS_CHANGE. A card no longer PROCESSING (a job run twice) is left alone.
 */
const issuance: JobHandler = async (context) => {
  await context.deps.db.transaction(async (tx) => {
    const card = await store.findCard(tx, context.job.platformId, String(context.job.payload.cardId), true);
    if (card?.status === "PROCESSING") {
      const now = await jobNow(tx, context);
      const rejected = context.job.payload.outcome === "REJECT";
      const updated: store.CardRow = {
        ...card,
        status: rejected ? "CLOSED" : "ACTIVE",
        status_reason: rejected ? "ISSUER_REJECTED" : null,
        updated_at: now,
      };
      await store.updateCard(tx, updated);
      if (rejected) await revokeCardKeys(tx, card.id, now);
      await cardEvent(tx, "STATUS_CHANGE", updated, now);
    }
    await context.finish(tx);
  });
};

/** Job kinds of the cards area, registered in src/jobs.ts. */
export function cardJobHandlers(): Record<string, JobHandler> {
  return { [CARD_ISSUANCE]: issuance };
}
