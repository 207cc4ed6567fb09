import { agentJobHandlers } from "./agents/approval.js";
import { cardJobHandlers } from "./cards/issuance-jobs.js";
import { cardTransactionJobHandlers } from "./cards/transaction-jobs.js";
import type { JobHandler } from "./core/jobs/jobs.js";
import { bulkImportJobHandlers } from "./customers/bulk/imports.js";
import { bankValidationJobHandlers } from "./external-accounts/bank-validation-jobs.js";
import { livenessJobHandlers } from "./external-accounts/ownership/liveness-jobs.js";
import { paymentJobHandlers } from "./payments/jobs.js";
import { scaJobHandlers } from "./sca/jobs.js";
import { stablecoinJobHandlers } from "./stablecoins/operation-jobs.js";
import { umaJobHandlers } from "./uma/settlement.js";
import { walletAuthJobHandlers } from "./wallet-auth/reconcile-jobs.js";
import { webhookJobHandlers } from "./webhooks/jobs.js";

/** Every background job kind and its handler, one line per area (like app.ts for routes). */
export function jobHandlers(): Record<string, JobHandler> {
  return {
    ...paymentJobHandlers(),
    ...webhookJobHandlers(),
    ...cardJobHandlers(),
    ...cardTransactionJobHandlers(),
    ...livenessJobHandlers(),
    ...scaJobHandlers(),
    ...walletAuthJobHandlers(),
    ...agentJobHandlers(),
    ...stablecoinJobHandlers(),
    ...bankValidationJobHandlers(),
    ...umaJobHandlers(),
    ...bulkImportJobHandlers(),
  };
}
