import type { X509Certificate } from "node:crypto";
import { ErrorCode, type NonceValidator, PubKeyResponse, UmaError } from "@uma-sdk/core";
import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Environment } from "../core/http/context.js";
import { outboundFetch } from "../core/outbound/fetch.js";
import { targetPolicy } from "../core/outbound/targets.js";
import { findPlatformByIdSuffix, findPlatformByUmaDomain } from "../platform/store.js";
import { defaultDomainPlatformLabel } from "../platform/uma-domain.js";
import { isSandboxCounterpartyDomain } from "./sandbox-counterparty-domains.js";

declare module "../core/deps.js" {
  interface Deps {
    /**
     * UMA domains reached at another address than their own (PAYSVC_UMA_DOMAINS: `domain=baseUrl,…`), for
     * local development: two paysvc processes on loopback (docs/guides/uma.md).
     */
    umaDomains?: Readonly<Record<string, string>>;
  }
}

/** Every request to another VASP gives up after this long (LNURLP, public keys, pay requests). */
export const COUNTERPARTY_TIMEOUT_MS = 5_000;
const MAX_RESPONSE_BYTES = 256 * 1024;
/** A signed message older than this, or this far in the future, is refused (INVALID_TIMESTAMP). */
export const SIGNATURE_WINDOW_S = 5 * 60;

/**
 * Where a UMA domain's endpoints are: the configured map first; then a domain of this service (a
 * platform's, or the sandbox counterparty's), served under `<origin>/uma/<domain>`; then the domain
 * itself over HTTPS (HTTP for `localhost` names, as UMA's own SDK does).
 */
export async function vaspBaseUrl(deps: Deps, domain: string, origin: string): Promise<string> {
  const mapped = deps.umaDomains?.[domain];
  if (mapped) return mapped.replace(/\/+$/, "");
  if (await isServedHere(deps, domain)) return `${origin}/uma/${domain}`;
  const local = domain === "localhost" || domain.endsWith(".localhost");
  return `${local ? "http" : "https"}://${domain}`;
}

async function isServedHere(deps: Deps, domain: string): Promise<boolean> {
  if (deps.mode === "sandbox" && isSandboxCounterpartyDomain(domain)) return true;
  if (await findPlatformByUmaDomain(deps.db, domain)) return true;
  const label = defaultDomainPlatformLabel(domain, deps.publicUrl);
  return label !== undefined && (await findPlatformByIdSuffix(deps.db, label)) !== undefined;
}

/** A GET to another VASP through the platform's outbound policy (no private targets in production). */
export function counterpartyGet(deps: Deps, environment: Environment, url: string) {
  return counterpartyRequest(deps, environment, url);
}

/** A POST of a JSON body to another VASP, through the same policy. */
export function counterpartyPost(deps: Deps, environment: Environment, url: string, body: string) {
  return counterpartyRequest(deps, environment, url, body);
}

async function counterpartyRequest(
  deps: Deps,
  environment: Environment,
  url: string,
  body?: string,
): Promise<{ status: number; text: string }> {
  const fetch = outboundFetch(() => targetPolicy(deps.outbound, environment), MAX_RESPONSE_BYTES);
  const headers = new Headers({ accept: "application/json" });
  if (body !== undefined) headers.set("content-type", "application/json");
  const response = await fetch(url, {
    method: body === undefined ? "GET" : "POST",
    headers,
    signal: AbortSignal.timeout(COUNTERPARTY_TIMEOUT_MS),
    ...(body === undefined ? {} : { body }),
  });
  return { status: response.status, text: await response.text() };
}

/**
 * Checks a VASP's published chains: each certificate within its validity at `now` (CERT_CHAIN_EXPIRED),
 * signed by the next one, the last by itself (CERT_CHAIN_INVALID).
 */
function checkChain(chain: readonly X509Certificate[] | undefined, now: Date): void {
  if (!chain) return;
  if (chain.length === 0)
    throw new ApiError("CERT_CHAIN_INVALID", { reason: "The certificate chain is empty." });
  chain.forEach((certificate, i) => {
    const issuer = chain[i + 1] ?? certificate;
    if (!certificate.verify(issuer.publicKey))
      throw new ApiError("CERT_CHAIN_INVALID", {
        reason: `Certificate ${i} of the counterparty's chain is not signed by ${i + 1 < chain.length ? "the next one" : "itself"}.`,
      });
    if (now < new Date(certificate.validFrom) || now > new Date(certificate.validTo))
      throw new ApiError("CERT_CHAIN_EXPIRED", {
        reason: `Certificate ${i} of the counterparty's chain is valid from ${certificate.validFrom} to ${certificate.validTo}.`,
      });
  });
}

/** How long a VASP's checked public keys are reused, unless the VASP says they expire sooner. */
const PUBKEY_REUSE_MS = 5 * 60 * 1000;
const MAX_CACHED_VASPS = 1_000;
const cachedKeys = new Map<string, { keys: PubKeyResponse; until: number }>();

/**
 * The public keys a VASP publishes, fetched and checked as fetchPubKeys says, and reused for a few minutes
 * (never past the response's `expirationTimestamp` or a certificate's end): a payment's lookup, pay request
 * and callbacks need them several times. Failures are not kept.
 */
export async function counterpartyPubKeys(
  deps: Deps,
  environment: Environment,
  baseUrl: string,
  domain: string,
): Promise<PubKeyResponse> {
  const key = `${environment} ${baseUrl} ${domain}`;
  const cached = cachedKeys.get(key);
  if (cached && cached.until > Date.now()) return cached.keys;
  const keys = await fetchPubKeys(deps, environment, baseUrl, domain);
  const certificateEnds = [...(keys.signingCertChain ?? []), ...(keys.encryptionCertChain ?? [])].map((c) =>
    new Date(c.validTo).getTime(),
  );
  const until = Math.min(
    Date.now() + PUBKEY_REUSE_MS,
    keys.expirationTimestamp ? keys.expirationTimestamp * 1000 : Number.POSITIVE_INFINITY,
    ...certificateEnds,
  );
  if (cachedKeys.size >= MAX_CACHED_VASPS) cachedKeys.delete(cachedKeys.keys().next().value as string);
  cachedKeys.set(key, { keys, until });
  return keys;
}

/**
 * The public keys a VASP publishes at `/.well-known/lnurlpubkey`, checked: unreachable or not 200 →
 * `424 COUNTERPARTY_PUBKEY_FETCH_ERROR`; not a key response → `400 INVALID_PUBKEY_FORMAT`; chains as
 * checkChain says.
 */
async function fetchPubKeys(
  deps: Deps,
  environment: Environment,
  baseUrl: string,
  domain: string,
): Promise<PubKeyResponse> {
  let answer: { status: number; text: string };
  try {
    answer = await counterpartyGet(deps, environment, `${baseUrl}/.well-known/lnurlpubkey`);
  } catch (error) {
    throw new ApiError("COUNTERPARTY_PUBKEY_FETCH_ERROR", {
      reason: `The public keys of ${domain} could not be fetched: ${describe(error)}.`,
    });
  }
  if (answer.status !== 200)
    throw new ApiError("COUNTERPARTY_PUBKEY_FETCH_ERROR", {
      reason: `${domain} answered ${answer.status} for its public keys.`,
    });
  let keys: PubKeyResponse;
  try {
    keys = PubKeyResponse.fromJson(answer.text);
  } catch {
    throw new ApiError("CERT_CHAIN_INVALID", {
      reason: `The certificates ${domain} publishes do not parse.`,
    });
  }
  // Certificates and signatures are dated by the real clock, not by a sandbox platform's moved clock.
  checkChain(keys.signingCertChain, new Date());
  checkChain(keys.encryptionCertChain, new Date());
  for (const read of [() => keys.getSigningPubKey(), () => keys.getEncryptionPubKey()]) {
    let key: Uint8Array;
    try {
      key = read();
    } catch {
      throw new ApiError("INVALID_PUBKEY_FORMAT", { reason: `${domain} publishes no usable public key.` });
    }
    if (key.length !== 65 || key[0] !== 4)
      throw new ApiError("INVALID_PUBKEY_FORMAT", {
        reason: `${domain} publishes a key that is not an uncompressed secp256k1 point.`,
      });
  }
  return keys;
}

/**
 * Nonces across every process on the database: a nonce seen before from the same VASP is a replay
 * (INVALID_NONCE); a timestamp outside the window is INVALID_TIMESTAMP, before the nonce is recorded.
 */
export function databaseNonceValidator(deps: Deps, domain: string): NonceValidator {
  return {
    async checkAndSaveNonce(nonce: string, timestampSec: number): Promise<boolean> {
      const nowSec = Date.now() / 1000;
      if (!Number.isFinite(timestampSec) || Math.abs(nowSec - timestampSec) > SIGNATURE_WINDOW_S)
        throw new UmaError(
          `The message was signed at ${timestampSec}, outside the accepted window.`,
          ErrorCode.INVALID_TIMESTAMP,
        );
      const rows = await deps.db.query(
        "INSERT INTO uma_nonces (id, signed_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id",
        [`${domain} ${nonce}`, new Date(timestampSec * 1000)],
      );
      return rows.length === 1;
    },
  };
}

/** UMA SDK error codes that are catalogue codes of the same name (the spec's 400s). */
const sameNamed = new Set([
  "INVALID_TIMESTAMP",
  "INVALID_NONCE",
  "MISSING_REQUIRED_UMA_PARAMETERS",
  "INVALID_PUBKEY_FORMAT",
  "CERT_CHAIN_INVALID",
] as const);
type SameNamed = typeof sameNamed extends Set<infer T> ? T : never;

/** The catalogue error for a failure the UMA SDK reported while checking a counterparty's message. */
export function fromUmaError(
  error: unknown,
  fallback: "LOOKUP_REQUEST_FAILED" | "PAYREQ_REQUEST_FAILED",
): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof UmaError && sameNamed.has(String(error.code) as SameNamed))
    return new ApiError(String(error.code) as SameNamed, { reason: error.message });
  return new ApiError(fallback, { reason: `The counterparty's message was refused: ${describe(error)}.` });
}

export const describe = (error: unknown) =>
  error instanceof Error ? error.message.replace(/\s+/g, " ").slice(0, 200) : "unknown error";
