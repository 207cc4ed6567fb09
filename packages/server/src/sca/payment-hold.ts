import type { Tx } from "../core/db/db.js";
import { invalidField } from "../core/errors/api-error.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import type { CustomerRow } from "../customers/store.js";
import type { GateContext } from "../quotes/execution-gate.js";
import type { QuoteRow } from "../quotes/store.js";
import { issueChallenge, requireUnlocked, toScaChallenge } from "./challenges.js";
import { usableFactor } from "./sessions.js";
import * as store from "./store.js";

/** Job kind: a payment challenge reached its `expiresAt` (fails the payment unless it was answered). */
export const PAYMENT_CHALLENGE_EXPIRY = "sca.payment-challenge-expiry";

/**
 * Holds a payout for its own challenge (the SCA gate, on `POST /quotes/{id}/execute`): the quote moves to
 * PENDING_AUTHORIZATION with `scaChallenge` (factor `scaFactor`, SMS_OTP by default) and no money moves;
 * answering it (`POST /quotes/{quoteId}/authorize`, payments.ts) executes it, expiry fails it with
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
  const wire = scaFactor ?? "SMS_OTP";
  if (wire !== "SMS_OTP" && wire !== "PASSKEY" && wire !== "TOTP")
    throw invalidField("scaFactor", "must be SMS_OTP, TOTP or PASSKEY", {
      enum: ["SMS_OTP", "TOTP", "PASSKEY"],
    });
  const factor = await usableFactor(tx, customer.id, wire);
  const challenge = await issueChallenge(deps, tx, caller, {
    customer,
    purpose: "PAYMENT",
    factor,
    subjectId: quote.id,
    now,
  });
  return holdWith(tx, { deps, caller, now }, customer, quote, challenge);
}

/** Schedules the challenge's expiry and holds the quote with it as `scaChallenge` (purpose PAYOUT). */
export async function holdWith(
  tx: Tx,
  { caller, now }: Pick<GateContext, "deps" | "caller" | "now">,
  customer: CustomerRow,
  quote: QuoteRow,
  challenge: store.ChallengeRow,
): Promise<QuoteRow> {
  await scheduleJob(tx, {
    platformId: caller.platformId,
    kind: PAYMENT_CHALLENGE_EXPIRY,
    payload: { challengeId: challenge.id },
    runAt: challenge.expires_at,
    now,
  });
  const scaChallenge = await toScaChallenge(tx, caller, challenge, customer, "PAYOUT");
  return store.holdQuote(tx, quote.id, { scaChallenge }, now);
}
