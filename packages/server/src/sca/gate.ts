import type { Executor } from "../core/db/db.js";
import { invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { requiresSca } from "../customers/contact-verification.js";
import { findCustomer } from "../customers/store.js";
import type { ExecutionGate } from "../quotes/execution-gate.js";
import type { QuoteRow } from "../quotes/store.js";
import { holdForScaChallenge } from "./payment-hold.js";
import { requireLiveSession } from "./sessions.js";
import * as store from "./store.js";

/** The quote's source customer when it is in an SCA region, else undefined (no SCA for this execution). */
export async function scaCustomerOf(tx: Executor, caller: Caller, quote: QuoteRow) {
  if (quote.customer_id === null || quote.source_account_id === null) return undefined;
  const customer = await findCustomer(tx, caller.platformId, quote.customer_id);
  return customer && requiresSca(customer) ? customer : undefined;
}

/**
 * Dynamic linking (PSD2 RTS art. 5): a payout to an external account needs its own challenge unless the
 * account is a trusted beneficiary (RTS art. 13). Transfers between internal accounts need only the session.
 */
export async function needsPaymentChallenge(tx: Executor, quote: QuoteRow): Promise<boolean> {
  const externalId = quote.destination_account_id && parseId("ExternalAccount", quote.destination_account_id);
  if (!externalId) return false;
  return !(await store.isTrustedBeneficiary(tx, externalId));
}

/**
 * The SCA execution gate: an execution from an SCA-region customer's account needs a live SCA session
 * (`409 SCA_SESSION_REQUIRED`) and, for a payout to an untrusted beneficiary, the quote's completed
 * payment challenge. Without one, `POST /quotes/{id}/execute` (options.hold) holds the quote for a new
 * challenge (payments.ts); any other execution (immediatelyExecute, agents, transfer-out) is
 * `400 INVALID_INPUT`.
 */
export const scaExecutionGate: ExecutionGate = async (tx, context, quote, options) => {
  const customer = await scaCustomerOf(tx, context.caller, quote);
  if (!customer) return undefined;
  await requireLiveSession(tx, customer.id, context.now);
  if (!(await needsPaymentChallenge(tx, quote))) return undefined;
  const challenge = await store.findChallengeBySubject(tx, "PAYMENT", quote.id);
  if (challenge?.state === "COMPLETED") return undefined;
  if (options.hold)
    return { held: await holdForScaChallenge(tx, context, customer, quote, options.hold.scaFactor) };
  throw invalidField(
    "immediatelyExecute",
    "a payout to an untrusted beneficiary needs a per-payment SCA challenge: create the quote, then execute it",
  );
};
