import type { Tx } from "../core/db/db.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import type { CustomerRow } from "../customers/store.js";
import type { GateContext } from "../quotes/execution-gate.js";
import type { QuoteRow } from "../quotes/store.js";
import { issueChallenge, requireUnlocked, toScaChallenge } from "./challenges.js";
import { findLivePasskey } from "./passkey-store.js";
import * as store from "./store.js";

/** Job kind: a payment challenge reached its `expiresAt` (fails the payment unless it was answered). */
export const PAYMENT_CHALLENGE_EXPIRY = "sca.payment-challenge-expiry";

/**
 * Holds a payout for its own challenge (the SCA gate, on `POST /quotes/{id}/execute`): the quote moves to
 * PENDING_AUTHORIZATION with `scaChallenge` (factor `scaFactor`, OTP by default) and no money moves;
 * answering it (`POST /sca/payments/complete`, payments.ts) executes it, expiry fails it with
 * `SCA_NOT_COMPLETED`.
 */
export async function holdForScaChallenge(
  tx: Tx,
  { deps, caller, now }: GateContext,
  customer: CustomerRow,
  quote: QuoteRow,
  scaFactor: string | undefined,
): Promise<QuoteRow> {
  requireUnlocked(await store.lockScaCustomer(tx, caller.platformId, customer.id, now), now);
  const factor = scaFactor ?? "OTP";
  if (factor !== "OTP" && factor !== "PASSKEY") throw invalidField("scaFactor", "must be OTP or PASSKEY");
  if (factor === "PASSKEY" && !(await findLivePasskey(tx, customer.id)))
    throw new ApiError("CONFLICT", { reason: `Customer ${customer.id} has no enrolled SCA passkey.` });
  const challenge = await issueChallenge(deps, tx, caller, {
    customer,
    purpose: "PAYMENT",
    factor,
    subjectId: quote.id,
    now,
  });
  await scheduleJob(tx, {
    platformId: caller.platformId,
    kind: PAYMENT_CHALLENGE_EXPIRY,
    payload: { challengeId: challenge.id },
    runAt: challenge.expires_at,
    now,
  });
  const { customerId: _, purpose: __, ...scaChallenge } = toScaChallenge(challenge);
  return store.holdQuote(tx, quote.id, { scaChallenge }, now);
}
