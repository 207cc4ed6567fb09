import { cardJobHandlers } from "./cards/issuance-jobs.js";
import { cardTransactionJobHandlers } from "./cards/transaction-jobs.js";
import type { JobHandler } from "./core/jobs/jobs.js";
import { livenessJobHandlers } from "./external-accounts/ownership/liveness-jobs.js";
import { payoutJobHandlers } from "./quotes/jobs.js";
import { walletAuthJobHandlers } from "./wallet-auth/reconcile-jobs.js";
import { webhookJobHandlers } from "./webhooks/jobs.js";

/** Every background job kind and its handler, one line per area (like app.ts for routes). */
export function jobHandlers(): Record<string, JobHandler> {
  return {
    ...payoutJobHandlers(),
    ...webhookJobHandlers(),
    ...cardJobHandlers(),
    ...cardTransactionJobHandlers(),
    ...livenessJobHandlers(),
    ...walletAuthJobHandlers(),
  };
}
