import {
  type CompactVerifyGetKey,
  compactVerify,
  createRemoteJWKSet,
  customFetch,
  decodeJwt,
  decodeProtectedHeader,
  type JWTPayload,
  errors as jose,
} from "jose";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Environment } from "../core/http/context.js";
import { outboundFetch } from "../core/outbound/fetch.js";
import { PUBLIC_ONLY, type TargetPolicy } from "../core/outbound/targets.js";
import type { OidcProviderConfig, WalletAuthConfig } from "../platform/wallet-auth-config.js";
import { KNOWN_JWKS_URIS } from "./auth-config.js";

/** Issuers a sandbox platform accepts without configuration; their signatures are not checked (§5.7). */
export const SANDBOX_OIDC_ISSUERS: readonly string[] = [
  "https://accounts.google.com",
  "accounts.google.com",
  "https://appleid.apple.com",
];

/** `iat` may be this old (conventions §5.7) … */
const MAX_TOKEN_AGE_S = 60;
/** … and this far ahead of our clock (provider clock skew). */
const MAX_CLOCK_SKEW_S = 5;
/** Asymmetric JWS algorithms only: `none` and HMAC (a shared secret the provider never gave us) are refused. */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];

/** What a checked token proves. `audience` is the audience that matched (the one a credential records). */
export interface OidcClaims {
  issuer: string;
  audience: string;
  /** Every `aud` value of the token. */
  audiences: string[];
  subject: string;
  email: string | undefined;
  nonce: unknown;
  /** Seconds since the epoch. */
  expiresAt: number;
}

export interface OidcContext {
  environment: Environment;
  config: WalletAuthConfig;
  now: Date;
}

const failed = (why: string) =>
  new ApiError("UNAUTHORIZED", { reason: `The OIDC token was refused: ${why}.` });

/** At most this many key sets are cached; the least recently used goes first (issue 16). */
export const MAX_CACHED_KEY_SETS = 256;
/** A key set document larger than this is refused, not buffered (real ones are a few KiB). */
const MAX_KEY_SET_BYTES = 64 * 1024;

/**
 * Where key sets may be fetched from. Only production platforms fetch them, so: public addresses only,
 * checked on the address the socket connects to (core/outbound). The test suite's issuer is a loopback
 * server: its files widen this with useKeySetTargets and put it back when done.
 */
let keySetTargets: TargetPolicy = PUBLIC_ONLY;

/** Replaces the key-set target policy (tests only); returns the function that restores the previous one. */
export function useKeySetTargets(policy: TargetPolicy): () => void {
  const previous = keySetTargets;
  keySetTargets = policy;
  return () => {
    keySetTargets = previous;
  };
}

const fetchKeySet = outboundFetch(() => keySetTargets, MAX_KEY_SET_BYTES);

// One remote key set per URI: jose caches the keys (10 min) and refetches on an unknown `kid` (at most
// every 30 s), which a per-request key set would defeat. The URIs come from platform configuration, so
// the cache is bounded (a Map iterates in insertion order: a hit is moved to the end, the first evicted).
const keySets = new Map<string, CompactVerifyGetKey>();

function keySet(uri: string): CompactVerifyGetKey {
  let set = keySets.get(uri);
  if (set) keySets.delete(uri);
  else set = createRemoteJWKSet(new URL(uri), { timeoutDuration: 5000, [customFetch]: fetchKeySet });
  keySets.set(uri, set);
  if (keySets.size > MAX_CACHED_KEY_SETS) {
    const oldest = keySets.keys().next().value;
    if (oldest !== undefined) keySets.delete(oldest);
  }
  return set;
}

/** How many key sets are cached now (the bound's test). */
export const cachedKeySetCount = () => keySets.size;

/** Header and payload of a compact JWT; anything that is not one is `400 INVALID_INPUT` on `oidcToken`. */
function decode(token: string): JWTPayload {
  try {
    const header = decodeProtectedHeader(token);
    if (typeof header.alg !== "string") throw new Error("the header has no alg");
    if (token.split(".").length !== 3) throw new Error("not three segments");
    return decodeJwt(token);
  } catch {
    throw invalidField("oidcToken", "must be a JWT: three base64url segments with a JSON header and payload");
  }
}

async function checkSignature(token: string, provider: OidcProviderConfig): Promise<void> {
  const uri = provider.jwksUri ?? KNOWN_JWKS_URIS[provider.issuer];
  if (!uri) throw failed(`signature: no key set is configured for ${provider.issuer}`);
  try {
    await compactVerify(token, keySet(uri), { algorithms: ALGORITHMS });
  } catch (error) {
    if (error instanceof jose.JOSEAlgNotAllowed)
      throw failed("signature: the alg is not an allowed algorithm");
    if (error instanceof jose.JWKSNoMatchingKey)
      throw failed("signature: no key of the issuer's key set matches the token");
    if (error instanceof jose.JWSSignatureVerificationFailed || error instanceof jose.JWSInvalid)
      throw failed("signature does not verify against the issuer's key set");
    throw failed("signature: the issuer's key set could not be fetched");
  }
}

function audiencesOf(aud: unknown): string[] | undefined {
  if (typeof aud === "string") return aud === "" ? undefined : [aud];
  if (Array.isArray(aud) && aud.length > 0 && aud.every((a) => typeof a === "string" && a !== "")) return aud;
  return undefined;
}

/**
 * Checks an OIDC ID token (conventions §5.7), in this order: shape (400), `iss` allowed, the signature
 * against the provider's key set (production only), `aud` allowed, `sub`, `iat`, `exp`. Production
 * accepts only configured providers; a sandbox platform also accepts the §5.7 issuers with any single
 * audience, and never checks signatures. Failures are `401 UNAUTHORIZED` naming the claim.
 */
export async function checkOidcToken(token: string, context: OidcContext): Promise<OidcClaims> {
  const payload = decode(token);
  const providers = context.config.oidcProviders ?? [];
  const sandbox = context.environment === "SANDBOX";
  const issuer = payload.iss;
  if (typeof issuer !== "string" || issuer === "") throw failed("iss is missing");
  const provider = providers.find((p) => p.issuer === issuer);
  if (!provider && !(sandbox && SANDBOX_OIDC_ISSUERS.includes(issuer)))
    throw failed(`iss ${JSON.stringify(issuer)} is not an allowed issuer`);
  if (!sandbox && provider) await checkSignature(token, provider);

  const audiences = audiencesOf(payload.aud);
  if (!audiences) throw failed("aud must be a non-empty string or array of strings");
  let audience: string | undefined;
  if (provider) audience = audiences.find((a) => provider.audiences.includes(a));
  else if (audiences.length === 1) audience = audiences[0];
  if (audience === undefined)
    throw failed(
      provider
        ? "aud is not an allowed audience of the issuer"
        : "aud must be a single audience in the sandbox",
    );

  if (typeof payload.sub !== "string" || payload.sub === "") throw failed("sub is missing");
  const nowS = context.now.getTime() / 1000;
  if (typeof payload.iat !== "number" || !Number.isFinite(payload.iat)) throw failed("iat is missing");
  if (payload.iat < nowS - MAX_TOKEN_AGE_S) throw failed(`iat is more than ${MAX_TOKEN_AGE_S} s old`);
  if (payload.iat > nowS + MAX_CLOCK_SKEW_S) throw failed("iat is in the future");
  if (typeof payload.exp !== "number" || !Number.isFinite(payload.exp)) throw failed("exp is missing");
  if (payload.exp <= nowS) throw failed("exp has passed");
  if (payload.nbf !== undefined && (typeof payload.nbf !== "number" || payload.nbf > nowS + MAX_CLOCK_SKEW_S))
    throw failed("nbf is in the future");
  return {
    issuer,
    audience,
    audiences,
    subject: payload.sub,
    email: typeof payload.email === "string" && payload.email !== "" ? payload.email : undefined,
    nonce: payload.nonce,
    expiresAt: payload.exp,
  };
}

/** The 401 for a token that does not match: a claim name and why (verify's identity and nonce checks). */
export const oidcRefused = failed;
