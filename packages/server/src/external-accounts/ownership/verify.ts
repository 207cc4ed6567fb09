import { type Deps, nowFor } from "../../core/deps.js";
import { ApiError, invalidField } from "../../core/errors/api-error.js";
import type { Caller } from "../../core/http/context.js";
import { findExternalAccountOrThrow } from "../external-accounts.js";
import type { ExternalAccount, WalletAccountType } from "../schemas.js";
import { walletSignatureProblem } from "../wallets/signatures.js";
import { finishChallenge } from "./outcome.js";
import type { VerifyOwnershipBody } from "./schemas.js";
import * as store from "./store.js";

/**
 * `POST …/external-accounts/{id}/verify` (conventions §4.3): checks the wallet's signature over the open
 * WALLET_SIGNATURE challenge's exact message. Success → ACTIVE (`200`). A failed, undecodable or late
 * signature uses the challenge up and makes the account UNVERIFIED, committed before the `400` answers.
 */
export async function verifyWalletSignature(
  deps: Deps,
  caller: Caller,
  input: { rawId: string; owner: "customer" | "platform"; body: VerifyOwnershipBody },
): Promise<ExternalAccount> {
  const outcome = await deps.db.transaction(async (tx) => {
    const account = await findExternalAccountOrThrow(tx, caller, input.rawId, input.owner, true);
    const challenge = await store.openChallenge(tx, account.id);
    if (challenge?.method !== "WALLET_SIGNATURE" || challenge.message_to_sign === null) {
      throw new ApiError("CONFLICT", {
        reason: `External account ${account.id} has no outstanding WALLET_SIGNATURE challenge; start one first.`,
      });
    }
    const now = nowFor(deps, caller);
    const check = (message: string) =>
      walletSignatureProblem({
        accountType: account.account_type as WalletAccountType,
        address: String(account.account_info.address),
        message,
        signature: input.body.signature,
        scheme: input.body.signatureScheme,
      });
    if (now.getTime() > challenge.expires_at.getTime()) {
      await finishChallenge(tx, account, challenge, "EXPIRED", now);
      return { failure: `the challenge expired at ${challenge.expires_at.toISOString()}; start a new one` };
    }
    const problem = check(challenge.message_to_sign);
    if (problem === null) return { verified: await finishChallenge(tx, account, challenge, "VERIFIED", now) };
    await finishChallenge(tx, account, challenge, "FAILED", now);
    // Say so when the wallet signed the message of a challenge a newer one replaced.
    const abandoned = await store.lastAbandoned(tx, account.id);
    if (abandoned?.message_to_sign && check(abandoned.message_to_sign) === null)
      return { failure: "it signs an abandoned challenge's message; sign the latest messageToSign" };
    return { failure: problem };
  });
  if ("verified" in outcome && outcome.verified) return outcome.verified;
  throw invalidField("signature", `is not accepted: ${outcome.failure}; the account is now UNVERIFIED`);
}
