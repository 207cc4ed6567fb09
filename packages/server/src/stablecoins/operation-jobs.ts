import type { Tx } from "../core/db/db.js";
import type { JobHandler } from "../core/jobs/jobs.js";
import { postBalanceChanges } from "../ledger/ledger.js";
import { transitionPayment } from "../payments/lifecycle.js";
import { lockTransaction } from "../payments/store.js";
import { jobNow } from "../platform/clock.js";
import { burnPayoutJobHandlers, schedulePayout } from "./burn-payout.js";
import * as store from "./operation-store.js";
import { SETTLE_OPERATION_JOB } from "./operations.js";

/**
 * The sandbox provider's answer, read from the amount's last three digits like the payout suffixes
 * (conventions §3.6): `002` is rejected by the provider, anything else settles.
 */
function providerRejects(operation: store.OperationRow): boolean {
  return String(operation.amount).endsWith("002");
}

/** Moves the fiat leg and the treasury holding for the outcome, all in the settling transaction. */
async function applyOutcome(
  tx: Tx,
  operation: store.OperationRow,
  failed: boolean,
  now: Date,
): Promise<void> {
  const holding = {
    platformId: operation.platform_id,
    providerAccountId: operation.provider_account_id,
    stablecoinId: operation.stablecoin_id,
  };
  // A completed mint puts the tokens in the treasury, unless they went to a wallet outside the service;
  // a failed mint gives the debited money back.
  // A completed burn pays the redeemed money out; a failed burn returns the reserved tokens.
  const creditsAccount = operation.type === "MINT" ? failed : !failed;
  if (!creditsAccount && operation.type === "MINT" && operation.destination_account_id !== null) return;
  if (creditsAccount) {
    await postBalanceChanges(tx, {
      platformId: operation.platform_id,
      now,
      postings: [
        {
          accountId: operation.account_id,
          amount: operation.amount,
          transactionId: operation.transaction_id,
        },
      ],
    });
    // A burn to an external account: the credited money is paid out next (burn-payout.ts).
    if (operation.destination_rail !== null) await schedulePayout(tx, operation, now);
  } else {
    await store.addToHolding(tx, holding, operation.amount, now);
  }
}

async function settleTransaction(tx: Tx, operation: store.OperationRow, failed: boolean, now: Date) {
  const row = await lockTransaction(tx, operation.platform_id, operation.transaction_id);
  if (!row) throw new Error(`transaction ${operation.transaction_id} of ${operation.id} is missing`);
  const status = failed ? "FAILED" : "COMPLETED";
  await transitionPayment(tx, row, status, { settled_at: failed ? null : now, now });
}

/**
 * Settles a PROCESSING mint or burn: COMPLETED or FAILED with its money effects, its transaction's
 * status and event, in one transaction. An operation already settled (a job run twice) is left alone.
 */
const settleOperation: JobHandler = async (context) => {
  await context.deps.db.transaction(async (tx) => {
    const id = String(context.job.payload.operationId);
    const operation = await store.findOperation(tx, context.job.platformId, id, true);
    if (operation?.status === "PROCESSING") {
      const now = await jobNow(tx, context);
      const failed = providerRejects(operation);
      await applyOutcome(tx, operation, failed, now);
      await settleTransaction(tx, operation, failed, now);
      await store.settleOperation(tx, id, {
        status: failed ? "FAILED" : "COMPLETED",
        failure_reason: failed ? "PROVIDER_REJECTED" : null,
        now,
      });
    }
    await context.finish(tx);
  });
};

/** Job kinds of the stablecoins area, registered in src/jobs.ts. */
export function stablecoinJobHandlers(): Record<string, JobHandler> {
  return { [SETTLE_OPERATION_JOB]: settleOperation, ...burnPayoutJobHandlers() };
}
