import type { Tx } from "../core/db/db.js";
import type { Caller } from "../core/http/context.js";
import { scaExecutionGate } from "../sca/gate.js";
import { dailyVolumeGate } from "./daily-volume.js";
import type { QuoteRow } from "./store.js";
import { endUserTermsGate } from "./terms-gate.js";

/**
 * A check an execution must pass before any money moves. It runs inside the execution's database
 * transaction, after the quote is locked (or inserted) and before the accounts are touched; throwing an
 * ApiError rolls the whole execution back, so a refused execution writes nothing.
 */
export type ExecutionGate = (tx: Tx, caller: Caller, quote: QuoteRow, now: Date) => Promise<void>;

/**
 * Every gate, in the order they answer. Each area that can refuse an execution (strong customer
 * authentication, the daily volume limit, ...) owns its gate in its own folder and lists it here.
 */
const gates: readonly ExecutionGate[] = [
  endUserTermsGate,
  scaExecutionGate,
  // Last: it takes the platform's day counter row lock, held until the execution commits.
  dailyVolumeGate,
];

export async function runExecutionGates(tx: Tx, caller: Caller, quote: QuoteRow, now: Date): Promise<void> {
  for (const gate of gates) await gate(tx, caller, quote, now);
}
