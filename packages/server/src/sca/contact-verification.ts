import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { type Customer, loadCustomer } from "../customers/customers.js";
import { answerChallenge, issueChallenge } from "./challenges.js";
import { findScaCustomerOrThrow, readScaCustomerOrThrow } from "./regions.js";
import * as store from "./store.js";

/** The contact value a verification proves: the customer's `email` or `phoneNumber`. */
export type ContactChannel = "EMAIL" | "PHONE";

const channels = {
  EMAIL: { purpose: "CONTACT_EMAIL", field: "email", path: "verify-email", label: "e-mail" },
  PHONE: { purpose: "CONTACT_PHONE", field: "phoneNumber", path: "verify-phone", label: "phone" },
} as const;

/**
 * `POST /customers/{customerId}/verify-email` and `/verify-phone` → `204`: sends a 6-digit code (sandbox
 * `000000`, valid 5 minutes) to the customer's current e-mail or phone. The code proves that value only;
 * a new send abandons the open one. No such value, a deleted customer, or one outside the SCA regions is
 * `409 CONFLICT`.
 */
export async function sendContactVerification(
  deps: Deps,
  caller: Caller,
  rawCustomerId: string,
  channel: ContactChannel,
): Promise<void> {
  const { purpose, field } = channels[channel];
  await deps.db.transaction(async (tx) => {
    const customer = await findScaCustomerOrThrow(tx, caller, rawCustomerId);
    const value = customer.profile[field];
    const subject = typeof value === "string" ? { subjectId: value } : {};
    // The confirm names no challenge: one open per channel, whatever value an older one went to.
    await store.abandonOpenChallenges(tx, customer.id, [purpose]);
    const now = nowFor(deps, caller);
    await issueChallenge(deps, tx, caller, { customer, purpose, factor: "OTP", now, ...subject });
  });
}

/**
 * `POST /customers/{customerId}/verify-email/confirm` and `/verify-phone/confirm {code}` → `200` Customer:
 * the code proves the value it was sent to, and `contactVerification` shows it `VERIFIED` while that is
 * still the customer's value. Nothing sent (or already answered) → `409 CONFLICT`; expired → `409
 * CONFLICT`; a wrong code → `400 INVALID_INPUT` on `code`, counted towards the customer's SCA lock (`423`).
 */
export async function confirmContactVerification(
  deps: Deps,
  caller: Caller,
  rawCustomerId: string,
  channel: ContactChannel,
  code: string,
): Promise<Customer> {
  const { purpose, path, label } = channels[channel];
  const requestId = await deps.db.transaction(async (tx) => {
    const customer = await readScaCustomerOrThrow(tx, caller, rawCustomerId);
    const open = await store.latestOpenChallenge(tx, customer.id, purpose);
    if (!open)
      throw new ApiError("CONFLICT", {
        reason: `No ${label} verification code of customer ${customer.id} is waiting; send one with POST /customers/{customerId}/${path}.`,
      });
    return open.id;
  });
  return answerChallenge(
    deps,
    caller,
    { rawId: requestId, purposes: [purpose], answer: { code }, field: "code" },
    async (tx, challenge, now) => {
      const customer = await readScaCustomerOrThrow(tx, caller, challenge.customer_id);
      const state = await store.lockScaCustomer(tx, caller.platformId, customer.id, now);
      const proven =
        challenge.purpose === "CONTACT_EMAIL"
          ? { verified_email: challenge.subject_id, email_verified_at: now }
          : { verified_phone: challenge.subject_id, phone_verified_at: now };
      await store.updateScaCustomer(tx, { ...state, ...proven, updated_at: now });
      return loadCustomer(tx, customer);
    },
  );
}
