import type { JobHandler } from "../core/jobs/jobs.js";
import { payoutHandlers } from "./payout-jobs.js";
import { transferJobHandlers } from "./transfer-jobs.js";

/** Job kinds of payments: payout settlements, failures and returns, transfer-in returns. */
export function paymentJobHandlers(): Record<string, JobHandler> {
  return { ...payoutHandlers, ...transferJobHandlers };
}
