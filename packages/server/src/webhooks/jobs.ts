import type { JobHandler } from "../core/jobs/jobs.js";

/** Job kinds of the webhooks area. */
export function webhookJobHandlers(): Record<string, JobHandler> {
  return {};
}
