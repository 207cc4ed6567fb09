import { type Deps, nowFor } from "../core/deps.js";
import type { Caller } from "../core/http/context.js";
import type { CustomerRow } from "../customers/store.js";
import { answerChallenge, issueChallenge, toScaChallenge } from "./challenges.js";
import { findScaCustomerOrThrow, readScaCustomerOrThrow } from "./regions.js";
import type {
  ContactVerification,
  ContactVerificationBody,
  ContactVerificationCompleteBody,
  ScaChallenge,
} from "./schemas.js";
import * as store from "./store.js";

/** The proven state of the customer's current e-mail and phone: a value changed since is unverified. */
function toContactVerification(
  customer: CustomerRow,
  state: store.ScaCustomerRow | undefined,
): ContactVerification {
  const email = typeof customer.profile.email === "string" ? customer.profile.email : undefined;
  const phone = typeof customer.profile.phoneNumber === "string" ? customer.profile.phoneNumber : undefined;
  const emailVerified = email !== undefined && state?.verified_email === email && !!state.email_verified_at;
  const phoneVerified = phone !== undefined && state?.verified_phone === phone && !!state.phone_verified_at;
  const wire: ContactVerification = { customerId: customer.id, emailVerified, phoneVerified };
  if (email !== undefined) wire.email = email;
  if (phone !== undefined) wire.phoneNumber = phone;
  if (emailVerified && state?.email_verified_at) wire.emailVerifiedAt = state.email_verified_at.toISOString();
  if (phoneVerified && state?.phone_verified_at) wire.phoneVerifiedAt = state.phone_verified_at.toISOString();
  return wire;
}

/** `POST /contact-verification`: sends an OTP to the customer's e-mail or phone (sandbox code `000000`). */
export async function startContactVerification(
  deps: Deps,
  caller: Caller,
  body: ContactVerificationBody,
): Promise<ScaChallenge> {
  return deps.db.transaction(async (tx) => {
    const customer = await findScaCustomerOrThrow(tx, caller, body.customerId);
    const now = nowFor(deps, caller);
    const purpose = body.channel === "EMAIL" ? "CONTACT_EMAIL" : "CONTACT_PHONE";
    // The challenge names the value the code goes to: completing it proves that value only.
    const value = customer.profile[body.channel === "EMAIL" ? "email" : "phoneNumber"];
    const subject = typeof value === "string" ? { subjectId: value } : {};
    const row = await issueChallenge(deps, tx, caller, { customer, purpose, factor: "OTP", now, ...subject });
    return toScaChallenge(row);
  });
}

/**
 * `POST /contact-verification/complete`: the code proves the contact value the code was sent to, as it
 * is on the customer now; wrong codes count towards the customer's SCA lock.
 */
export async function completeContactVerification(
  deps: Deps,
  caller: Caller,
  body: ContactVerificationCompleteBody,
): Promise<ContactVerification> {
  return answerChallenge(
    deps,
    caller,
    {
      rawId: body.requestId,
      purposes: ["CONTACT_EMAIL", "CONTACT_PHONE"],
      answer: { code: body.code },
      field: "code",
    },
    async (tx, challenge, now) => {
      const customer = await readScaCustomerOrThrow(tx, caller, challenge.customer_id);
      const state = await store.lockScaCustomer(tx, caller.platformId, customer.id, now);
      const proven =
        challenge.purpose === "CONTACT_EMAIL"
          ? { verified_email: challenge.subject_id, email_verified_at: now }
          : { verified_phone: challenge.subject_id, phone_verified_at: now };
      const updated = { ...state, ...proven, updated_at: now };
      await store.updateScaCustomer(tx, updated);
      return toContactVerification(customer, updated);
    },
  );
}

/** `GET /contact-verification/{customerId}`. */
export async function getContactVerification(
  deps: Deps,
  caller: Caller,
  customerId: string,
): Promise<ContactVerification> {
  const customer = await readScaCustomerOrThrow(deps.db, caller, customerId);
  return toContactVerification(customer, await store.findScaCustomer(deps.db, customer.id));
}
