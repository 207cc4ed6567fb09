import { type Deps, nowFor } from "../core/deps.js";
import type { Caller } from "../core/http/context.js";
import { LOCK_MS, MAX_FAILED_ATTEMPTS, requireUnlocked } from "./challenges.js";
import { findScaCustomerOrThrow } from "./regions.js";
import type { RecordSecurityEventRequest, RecordSecurityEventResponse } from "./schemas.js";
import * as store from "./store.js";

/**
 * `POST /sca/record-event?customerId=` (`recordSecurityEvent`): a security event of the platform's own
 * login. FAILED_LOGIN_ATTEMPT counts like a wrong SCA answer (the MAX_FAILED_ATTEMPTS-th in a row locks
 * the customer for 30 minutes: `suspended: true`); RESET_PASSWORD_COMPLETED ends the customer's SCA login
 * sessions (the next write needs a new login). A customer already locked is `423 ACCOUNT_LOCKED`.
 */
export async function recordSecurityEvent(
  deps: Deps,
  caller: Caller,
  customerId: string,
  body: RecordSecurityEventRequest,
): Promise<RecordSecurityEventResponse> {
  return deps.db.transaction(async (tx) => {
    const customer = await findScaCustomerOrThrow(tx, caller, customerId);
    const now = nowFor(deps, caller);
    const state = await store.lockScaCustomer(tx, caller.platformId, customer.id, now);
    requireUnlocked(state, now);
    const result = { eventType: body.eventType, customerId: customer.id };
    if (body.eventType === "RESET_PASSWORD_COMPLETED") {
      await store.revokeSessions(tx, customer.id, now);
      return { ...result, suspended: false, lockedUntil: null, failedAttempts: state.failed_attempts };
    }
    const failed = state.failed_attempts + 1;
    const locks = failed >= MAX_FAILED_ATTEMPTS;
    const lockedUntil = locks ? new Date(now.getTime() + LOCK_MS) : null;
    await store.updateScaCustomer(tx, {
      ...state,
      failed_attempts: locks ? 0 : failed,
      locked_until: lockedUntil ?? state.locked_until,
      updated_at: now,
    });
    return {
      ...result,
      suspended: locks,
      lockedUntil: lockedUntil?.toISOString() ?? null,
      failedAttempts: failed,
    };
  });
}
