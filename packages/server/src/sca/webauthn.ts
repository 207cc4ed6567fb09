import { generateAuthenticationOptions } from "@simplewebauthn/server";
import type { Executor } from "../core/db/db.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { CustomerRow } from "../customers/store.js";
import { loadWalletAuthConfig } from "../wallet-auth/auth-config.js";
import { relyingParty } from "../wallet-auth/passkey-relying-party.js";
import { findLivePasskey, type PasskeyRow } from "./passkey-store.js";
import type { ScaFactor } from "./schemas.js";
import type * as store from "./store.js";
import { findTotp } from "./totp-store.js";

/** The sandbox default's origins as listed (any `http(s)://localhost:<port>` is accepted too). */
const SANDBOX_ORIGINS = ["http://localhost", "https://localhost"];

/** The platform's passkey relying party with its origins listed, as `allowedOrigins` / `relyingPartyId` show it. */
export interface ScaRelyingParty {
  rpId: string;
  origins: string[];
  allowsOrigin(origin: string): boolean;
}

/** The relying party of the caller's platform (wallet passkeys' one); `409 CONFLICT` when there is none. */
export async function scaRelyingParty(db: Executor, caller: Caller): Promise<ScaRelyingParty> {
  const config = await loadWalletAuthConfig(db, caller.platformId);
  const rp = relyingParty(caller.environment, config);
  if (!rp)
    throw new ApiError("CONFLICT", {
      reason: "Passkeys need walletAuthConfig.passkey (rpId and origins) in the platform configuration.",
    });
  return { ...rp, origins: config.passkey?.origins ?? SANDBOX_ORIGINS };
}

/** Stored factor (`OTP`, `PASSKEY`, `TOTP`) to the hosted API's name (`SMS_OTP`, `PASSKEY`, `TOTP`). */
export const wireFactor = (factor: store.ScaFactor): ScaFactor => (factor === "OTP" ? "SMS_OTP" : factor);

/** The factors a customer can answer a challenge with: SMS_OTP with a phone or e-mail, PASSKEY and TOTP once enrolled. */
export async function availableFactors(db: Executor, customer: CustomerRow): Promise<ScaFactor[]> {
  const factors: ScaFactor[] = [];
  const { email, phoneNumber } = customer.profile;
  if (typeof phoneNumber === "string" || typeof email === "string") factors.push("SMS_OTP");
  if (await findLivePasskey(db, customer.id)) factors.push("PASSKEY");
  if (await findTotp(db, customer.id, "ACTIVE")) factors.push("TOTP");
  return factors;
}

/**
 * `navigator.credentials.get` options for a PASSKEY challenge: the stored challenge (lowercase hex) UTF-8
 * encoded, as the assertion's `clientDataJSON.challenge` must carry it, and the customer's passkey.
 */
export async function assertionOptions(
  rp: ScaRelyingParty,
  passkey: PasskeyRow,
  hexChallenge: string,
): Promise<Record<string, unknown>> {
  const options = await generateAuthenticationOptions({
    rpID: rp.rpId,
    challenge: new TextEncoder().encode(hexChallenge),
    allowCredentials: [
      { id: passkey.credential_id, ...(passkey.transports ? { transports: passkey.transports } : {}) },
    ],
    userVerification: "preferred",
    timeout: 5 * 60 * 1000,
  });
  return { ...options };
}
