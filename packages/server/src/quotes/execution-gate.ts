import type { Tx } from "../core/db/db.js";
import type { Deps } from "../core/deps.js";
import type { Caller } from "../core/http/context.js";
import type { QuoteRow } from "./store.js";

/** Who executes, and the platform's now. */
export interface GateContext {
  deps: Deps;
  caller: Caller;
  now: Date;
}

export interface GateOptions {
  /**
   * `POST /quotes/{id}/execute` only: a gate may hold the quote for the customer (a strong customer
   * authentication challenge with this factor) instead of refusing the execution.
   */
  hold?: { scaFactor?: string | undefined };
}

/**
 * A check an execution must pass before any money moves. It runs inside the execution's database
 * transaction, after the quote is locked (or inserted) and before the accounts are locked; throwing an
 * ApiError rolls the whole execution back, so a refused execution writes nothing. A gate that holds the
 * quote answers it (`held`), and the execution stops there. The list is built at the composition root
 * (src/execution-gates.ts) and handed to payments, which runs it.
 */
export type ExecutionGate = (
  tx: Tx,
  context: GateContext,
  quote: QuoteRow,
  options: GateOptions,
) => Promise<{ held: QuoteRow } | undefined>;
