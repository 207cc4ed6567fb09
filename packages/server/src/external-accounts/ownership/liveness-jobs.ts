import type { JobHandler } from "../../core/jobs/jobs.js";

/** Job kinds of the liveness provider (asynchronous completion). */
export function livenessJobHandlers(): Record<string, JobHandler> {
  return {};
}
