import type { JobHandler } from "../core/jobs/jobs.js";

/** Job kinds of payouts and transfers (settlements, returns, delayed outcomes). */
export function payoutJobHandlers(): Record<string, JobHandler> {
  return {};
}
