import type { Executor } from "../core/db/db.js";
import type { FieldError } from "../core/errors/api-error.js";
import { type TargetPolicy, targetProblem } from "../core/outbound/targets.js";
import { findPlatform, type PlatformRow } from "../platform/store.js";
import type { WalletAuthConfig } from "../platform/wallet-auth-config.js";

// The platform's wallet-auth settings (`platforms.wallet_auth_config`, shaped by
// platform/wallet-auth-config.ts): the rules `PATCH /config` checks beyond the schema, and their reads.

/** Key sets of the issuers a provider entry may name without `jwksUri`. */
export const KNOWN_JWKS_URIS: Readonly<Record<string, string>> = {
  "https://accounts.google.com": "https://www.googleapis.com/oauth2/v3/certs",
  "accounts.google.com": "https://www.googleapis.com/oauth2/v3/certs",
  "https://appleid.apple.com": "https://appleid.apple.com/auth/keys",
};

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** Why an origin is not acceptable for `rpId`, or undefined when it is (WebAuthn: host = rpId or below it). */
function originProblem(origin: string, rpId: string): string | undefined {
  if (origin.startsWith("android:apk-key-hash:"))
    return /^android:apk-key-hash:[A-Za-z0-9_-]{43}$/.test(origin)
      ? undefined
      : "an Android origin is android:apk-key-hash: and the base64url SHA-256 of the signing certificate";
  const url = parseUrl(origin);
  if (!url || url.origin !== origin)
    return "must be an origin: scheme://host[:port], lowercase, with no path or trailing slash";
  if (url.protocol === "http:" && url.hostname !== "localhost")
    return "must use https (http is allowed for localhost only)";
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must use https";
  if (url.hostname !== rpId && !url.hostname.endsWith(`.${rpId}`))
    return `its host must be ${rpId} or a subdomain of it`;
  return undefined;
}

/**
 * The rules `PATCH /config` checks beyond the schema: origins belong to the RP ID, issuers are listed once,
 * and every provider has a key set (given, or known for Google and Apple) served over https or loopback
 * http, at an address `policy` lets the platform reach (no credentials, no loopback or private address
 * for production platforms; the resolved address is checked again when the key set is fetched).
 */
export function walletAuthConfigProblems(
  config: WalletAuthConfig,
  policy: Pick<TargetPolicy, "allowPrivate">,
): FieldError[] {
  const errors: FieldError[] = [];
  const passkey = config.passkey;
  if (passkey)
    passkey.origins.forEach((origin, i) => {
      const problem = originProblem(origin, passkey.rpId);
      if (problem) errors.push({ field: `walletAuthConfig.passkey.origins[${i}]`, message: problem });
    });
  const issuers = new Set<string>();
  (config.oidcProviders ?? []).forEach((provider, i) => {
    const field = `walletAuthConfig.oidcProviders[${i}]`;
    if (issuers.has(provider.issuer))
      errors.push({ field: `${field}.issuer`, message: `${provider.issuer} is configured more than once` });
    issuers.add(provider.issuer);
    if (provider.jwksUri === undefined) {
      if (!KNOWN_JWKS_URIS[provider.issuer])
        errors.push({ field: `${field}.jwksUri`, message: "is required for this issuer" });
      return;
    }
    const url = parseUrl(provider.jwksUri);
    if (!url || !(url.protocol === "https:" || (url.protocol === "http:" && loopbackHosts.has(url.hostname))))
      errors.push({
        field: `${field}.jwksUri`,
        message: "must be an absolute https URL (http only on a loopback host)",
      });
    else {
      const problem = targetProblem(url, policy);
      if (problem) errors.push({ field: `${field}.jwksUri`, message: problem });
    }
  });
  return errors;
}

/**
 * Reads the stored jsonb defensively: `PATCH /config` validated it on the way in, so anything else here
 * (an older shape, a hand edit) is ignored rather than trusted.
 */
export function readWalletAuthConfig(stored: unknown): WalletAuthConfig {
  if (typeof stored !== "object" || stored === null) return {};
  const raw = stored as Record<string, unknown>;
  const config: WalletAuthConfig = {};
  const passkey = raw.passkey as Record<string, unknown> | undefined;
  if (
    passkey &&
    typeof passkey.rpId === "string" &&
    Array.isArray(passkey.origins) &&
    passkey.origins.every((o) => typeof o === "string")
  )
    config.passkey = { rpId: passkey.rpId, origins: passkey.origins as string[] };
  if (Array.isArray(raw.oidcProviders))
    config.oidcProviders = raw.oidcProviders.flatMap((entry: unknown) => {
      const p = entry as Record<string, unknown> | null;
      if (
        !p ||
        typeof p.issuer !== "string" ||
        !Array.isArray(p.audiences) ||
        !p.audiences.every((a) => typeof a === "string")
      )
        return [];
      return [
        {
          issuer: p.issuer,
          audiences: p.audiences as string[],
          ...(typeof p.jwksUri === "string" ? { jwksUri: p.jwksUri } : {}),
        },
      ];
    });
  return config;
}

/** The platform's wallet-auth settings, read through `db` (the caller's transaction when it has one). */
export async function loadWalletAuthConfig(db: Executor, platformId: string): Promise<WalletAuthConfig> {
  const platform = await findPlatform(db, platformId);
  return readWalletAuthConfig(platform?.wallet_auth_config);
}

/**
 * The sandbox PROCESSING delay of signed retries (`walletAuthConfig.sandboxProcessingDelayMs`): what every
 * signed-retry endpoint passes to `signedRetry` as `processingDelayMs`. Always 0 outside the sandbox.
 */
export function sandboxProcessingDelayMs(row: Pick<PlatformRow, "environment" | "wallet_auth_config">) {
  const delay = row.wallet_auth_config.sandboxProcessingDelayMs;
  return row.environment === "SANDBOX" && typeof delay === "number" ? delay : 0;
}

/** `sandboxProcessingDelayMs` of a platform read by id (inside the signed-retry transaction). */
export async function walletProcessingDelayMs(db: Executor, platformId: string): Promise<number> {
  const row = await findPlatform(db, platformId);
  return row ? sandboxProcessingDelayMs(row) : 0;
}
