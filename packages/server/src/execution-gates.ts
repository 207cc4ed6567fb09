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
    // Last: it takes the platform's day counter row lock, held until the execution commits.
    dailyVolumeGate,
  ];
}
