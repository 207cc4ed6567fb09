import type { JobHandler } from "../core/jobs/jobs.js";
import { jobNow } from "../platform/clock.js";
import { PAYMENT_CHALLENGE_EXPIRY } from "./payment-hold.js";
import { failPayment } from "./payments.js";
import * as store from "./store.js";

/**
 * A payment challenge's `expiresAt` passed: still OPEN → EXPIRED, and its held quote fails with
 * `SCA_NOT_COMPLETED`. Answered or abandoned challenges are left alone. A sandbox clock moved back
 * before `expiresAt` reschedules the check instead.
 */
const paymentChallengeExpiry: JobHandler = async (context) => {
  await context.deps.db.transaction(async (tx) => {
    const challenge = await store.lockChallenge(
      tx,
      context.job.platformId,
      String(context.job.payload.challengeId),
    );
    const now = await jobNow(tx, context);
    if (challenge?.state === "OPEN" && now < challenge.expires_at) {
      await context.reschedule(tx, challenge.expires_at);
      return;
    }
    if (challenge?.state === "OPEN") {
      await store.setChallengeState(tx, challenge.id, { state: "EXPIRED" });
      await failPayment(tx, challenge, now);
    }
    await context.finish(tx);
  });
};

/** Job kinds of strong customer authentication, registered in src/jobs.ts. */
export function scaJobHandlers(): Record<string, JobHandler> {
  return { [PAYMENT_CHALLENGE_EXPIRY]: paymentChallengeExpiry };
}
