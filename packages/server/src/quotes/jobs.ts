import type { JobHandler } from "../core/jobs/jobs.js";
import { transferJobHandlers } from "../transfers/transfer-jobs.js";
import { payoutHandlers } from "./payout-jobs.js";

/** Job kinds of payouts and transfers (settlements, returns, delayed outcomes). */
export function payoutJobHandlers(): Record<string, JobHandler> {
  return { ...payoutHandlers, ...transferJobHandlers };
}
