import { randomBytes, randomUUID } from "node:crypto";
import type { Tx } from "../../core/db/db.js";
import { type Deps, nowFor } from "../../core/deps.js";
import { ApiError, invalidField } from "../../core/errors/api-error.js";
import { sha256Hex } from "../../core/hash.js";
import type { Caller } from "../../core/http/context.js";
import { findExternalAccountOrThrow } from "../external-accounts.js";
import type { ExternalAccountRow } from "../store.js";
import { bitcoinAddressKind } from "../wallets/addresses.js";
import { moveAccount } from "./outcome.js";
import type { OwnershipChallenge } from "./schemas.js";
import * as store from "./store.js";

/** How long a challenge stays answerable (conventions §4.2). */
export const WALLET_SIGNATURE_TTL_MS = 10 * 60 * 1000;
export const LIVENESS_TTL_MS = 30 * 60 * 1000;
/** Re-issue limit: this many challenges per account in any rolling window (conventions §4.2). */
export const CHALLENGES_PER_WINDOW = 5;
export const CHALLENGE_WINDOW_MS = 15 * 60 * 1000;

/** The exact message a wallet signs (conventions §4.2): ASCII, `\n` line ends, no trailing newline. */
export function messageToSign(address: string, nonce: string, expiresAt: Date): string {
  return [
    "paysvc wallet ownership verification",
    "I verify that I control this wallet.",
    `Address: ${address}`,
    `Nonce: ${nonce}`,
    `Expires: ${expiresAt.toISOString()}`,
  ].join("\n");
}

/** Why ownership verification does not apply to an account (`409 CONFLICT`), or null when it does. */
function notApplicable(account: ExternalAccountRow): string | null {
  const info = account.account_info as { accountType: string; vaspName?: string };
  if (info.accountType === "USD_ACCOUNT" || info.accountType === "LIGHTNING")
    return `${info.accountType} accounts are not self-custody wallets`;
  if (info.vaspName !== undefined) return `the wallet is custodied by ${info.vaspName}, not self-custody`;
  if (account.ownership_type !== "FIRST_PARTY") return "only FIRST_PARTY wallets verify ownership";
  if (account.status === "ACTIVE") return "the wallet is already verified (ACTIVE)";
  return null;
}

/** Spark wallets and Taproot addresses cannot sign the message in a way §4.3 checks: use LIVENESS. */
function signsMessages(account: ExternalAccountRow): boolean {
  const address = String(account.account_info.address ?? "");
  if (account.account_type === "SPARK_WALLET") return false;
  return !(account.account_type === "BITCOIN_WALLET" && bitcoinAddressKind(address) === "P2TR");
}

/** 5 challenges in any 15 minutes; the next one is allowed once the oldest leaves the window. */
async function checkReissueRate(tx: Tx, account: ExternalAccountRow, now: Date): Promise<void> {
  const recent = await store.issuedSince(tx, account.id, new Date(now.getTime() - CHALLENGE_WINDOW_MS));
  if (recent.length < CHALLENGES_PER_WINDOW) return;
  const oldest = recent[recent.length - CHALLENGES_PER_WINDOW] ?? now;
  const seconds = Math.max(1, Math.ceil((oldest.getTime() + CHALLENGE_WINDOW_MS - now.getTime()) / 1000));
  throw new ApiError("RATE_LIMITED", {
    reason: `At most ${CHALLENGES_PER_WINDOW} challenges per account in 15 minutes; retry in ${seconds} s.`,
    headers: { "retry-after": String(seconds) },
  });
}

/**
 * `POST …/external-accounts/{id}/challenge` (conventions §4.2): abandons the in-flight challenge and
 * issues a new one with the requested method; an UNVERIFIED wallet goes back to
 * PENDING_OWNERSHIP_VERIFICATION. `origin` builds the hosted liveness link.
 */
export async function startChallenge(
  deps: Deps,
  caller: Caller,
  input: { rawId: string; owner: "customer" | "platform"; method: store.ChallengeMethod; origin: string },
): Promise<OwnershipChallenge> {
  return deps.db.transaction(async (tx) => {
    const account = await findExternalAccountOrThrow(tx, caller, input.rawId, input.owner, true);
    const problem = notApplicable(account);
    if (problem)
      throw new ApiError("CONFLICT", { reason: `Ownership verification does not apply: ${problem}.` });
    if (input.method === "WALLET_SIGNATURE" && !signsMessages(account))
      throw invalidField(
        "method",
        `WALLET_SIGNATURE is not available for this ${account.account_type} address; use LIVENESS`,
      );
    const now = nowFor(deps, caller);
    await checkReissueRate(tx, account, now);
    await store.abandonOpenChallenges(tx, account.id, now);
    await moveAccount(tx, account, "PENDING_OWNERSHIP_VERIFICATION", now);
    const base = {
      id: randomUUID(),
      platform_id: account.platform_id,
      external_account_id: account.id,
      created_at: now,
    };
    if (input.method === "WALLET_SIGNATURE") {
      const expiresAt = new Date(now.getTime() + WALLET_SIGNATURE_TTL_MS);
      const message = messageToSign(
        String(account.account_info.address),
        randomBytes(16).toString("hex"),
        expiresAt,
      );
      await store.insertChallenge(tx, {
        ...base,
        method: "WALLET_SIGNATURE",
        state: "OPEN",
        message_to_sign: message,
        token_hash: null,
        expires_at: expiresAt,
        completed_at: null,
      });
      return { method: "WALLET_SIGNATURE", messageToSign: message, expiresAt: expiresAt.toISOString() };
    }
    const token = randomBytes(32).toString("base64url");
    const expiresAt = new Date(now.getTime() + LIVENESS_TTL_MS);
    await store.insertChallenge(tx, {
      ...base,
      method: "LIVENESS",
      state: "OPEN",
      message_to_sign: null,
      token_hash: sha256Hex(token),
      expires_at: expiresAt,
      completed_at: null,
    });
    return {
      method: "LIVENESS",
      verificationLink: `${input.origin}/liveness/${token}`,
      token,
      expiresAt: expiresAt.toISOString(),
    };
  });
}
