import type { JobHandler } from "../../core/jobs/jobs.js";
import { jobNow } from "../../platform/clock.js";
import { findExternalAccount } from "../store.js";
import { LIVENESS_COMPLETION } from "./liveness-flow.js";
import { finishChallenge } from "./outcome.js";
import { findChallenge } from "./store.js";

/**
 * The sandbox provider's answer to a submitted liveness flow: PASS → VERIFIED (account ACTIVE), FAIL →
 * FAILED (UNVERIFIED), each with EXTERNAL_ACCOUNT.STATUS_UPDATED, in the job's own transaction. The
 * challenge must still be OPEN: one a newer challenge abandoned, or a job run twice, changes nothing.
 * Past `expiresAt` it ends EXPIRED (UNVERIFIED), as a late wallet signature does (conventions §4.3).
 * Locks the account before the challenge, the order startChallenge and verify use.
 */
const completion: JobHandler = async (context) => {
  await context.deps.db.transaction(async (tx) => {
    const challengeId = String(context.job.payload.challengeId);
    const seen = await findChallenge(tx, challengeId);
    const account = seen
      ? await findExternalAccount(tx, context.job.platformId, seen.external_account_id, true)
      : undefined;
    const challenge = account ? await findChallenge(tx, challengeId, true) : undefined;
    if (account && challenge?.state === "OPEN" && challenge.method === "LIVENESS") {
      const now = await jobNow(tx, context);
      const passed = context.job.payload.outcome === "PASS";
      const state =
        now.getTime() > challenge.expires_at.getTime() ? "EXPIRED" : passed ? "VERIFIED" : "FAILED";
      await finishChallenge(tx, account, challenge, state, now);
    }
    await context.finish(tx);
  });
};

/** Job kinds of the liveness provider (asynchronous completion), registered in src/jobs.ts. */
export function livenessJobHandlers(): Record<string, JobHandler> {
  return { [LIVENESS_COMPLETION]: completion };
}
