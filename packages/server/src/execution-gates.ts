import { dailyVolumeGate } from "./quotes/daily-volume.js";
import type { ExecutionGate } from "./quotes/execution-gate.js";
import { endUserTermsGate } from "./quotes/terms-gate.js";
import { scaExecutionGate } from "./sca/gate.js";

/**
 * Every check a quote execution must pass, in the order they answer, one line per area that can refuse
 * (or hold) an execution; handed to payments from app.ts, like jobs.ts for the job runner.
 */
export function executionGates(): readonly ExecutionGate[] {
  return [
    endUserTermsGate,
    // May hold a payout for its own challenge instead (POST /quotes/{id}/execute only).
    scaExecutionGate,
    // Counts the execution right before its commit (the day counter's row lock is held for one statement).
    dailyVolumeGate,
  ];
}
