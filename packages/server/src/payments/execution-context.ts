import type { ExecutionGate, GateContext, GateOptions } from "../quotes/execution-gate.js";
import type { PayoutJob } from "./payout-jobs.js";
import type { TransactionRow } from "./store.js";

/** Who executes and when, with the execution gates built at the composition root (src/execution-gates.ts). */
export interface ExecutionContext extends GateContext {
  gates: readonly ExecutionGate[];
}

export interface ExecuteOptions extends GateOptions {
  /** An agent payment the platform approved: its PENDING row, completed in place under its own id. */
  pending?: TransactionRow;
  /** The sandbox outcomes of a payout by account suffix (transfer-out has its own column, conventions §3.6). */
  outcome?: OutcomePlan;
}

/**
 * The sandbox outcome of a payout by the external account's accountNumber suffix (conventions §3.6),
 * as the job that finishes it: which kind, when, and with what payload; or a failure at once.
 */
export type OutcomePlan = (
  suffix: string,
  transactionId: string,
  now: Date,
  expected: Date,
) => PayoutJob | { failNow: string };
