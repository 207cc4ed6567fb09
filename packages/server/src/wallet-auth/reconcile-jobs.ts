import type { JobHandler } from "../core/jobs/jobs.js";
import { jobNow } from "../platform/clock.js";
import { findSignedRequest } from "./signed-requests.js";
import { complete, RECONCILE_JOB } from "./signed-retry.js";

/**
 * The reconciler (interface "Handling a still-processing response", rule 3): a PROCESSING operation
 * settles on its own at `ready_at`, so it is visible through GET /auth/credentials or /auth/sessions
 * even if the client never re-sends. A wallet export's result is never stored.
 */
const reconcile: JobHandler = async (context) => {
  await context.deps.db.transaction(async (tx) => {
    const row = await findSignedRequest(
      tx,
      context.job.platformId,
      String(context.job.payload.requestId),
      true,
    );
    if (row?.state === "PROCESSING") {
      const now = await jobNow(tx, context);
      await complete(tx, context.deps, row, {
        signer: String(context.job.payload.signer),
        stampSha256: null,
        now,
        answered: false,
      });
    }
    await context.finish(tx);
  });
};

export function walletAuthJobHandlers(): Record<string, JobHandler> {
  return { [RECONCILE_JOB]: reconcile };
}
