import type { JobHandler } from "../core/jobs/jobs.js";

/** Job kinds of card transactions (authorization expiry, delayed funding pulls). */
export function cardTransactionJobHandlers(): Record<string, JobHandler> {
  return {};
}
