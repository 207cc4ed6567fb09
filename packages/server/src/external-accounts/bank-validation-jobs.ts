import type { JobHandler } from "../core/jobs/jobs.js";
import { jobNow } from "../platform/clock.js";
import { BANK_VALIDATION_WINDOW_JOB, closeReturnWindow } from "./bank-validation.js";
import { findExternalAccount } from "./store.js";

/**
 * The return window of an account's micro-entries closes (at `returnWindowEndsAt`, platform clock: a
 * sandbox clock advance past it makes the job due). Locks the account, then settles it in one transaction
 * with the job's completion; a deleted account is skipped.
 */
const windowClose: JobHandler = async (context) => {
  await context.deps.db.transaction(async (tx) => {
    const { platformId, payload } = context.job;
    const account = await findExternalAccount(tx, platformId, String(payload.externalAccountId), true);
    if (account) {
      await closeReturnWindow(tx, account, await jobNow(tx, context));
    }
    await context.finish(tx);
  });
};

/** Job kinds of bank-account validation, registered in src/jobs.ts. */
export function bankValidationJobHandlers(): Record<string, JobHandler> {
  return { [BANK_VALIDATION_WINDOW_JOB]: windowClose };
}
