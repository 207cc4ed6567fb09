import { createHash, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from "node:crypto";
import {
  DEFAULT_TOLERANCE_SECONDS,
  parseSignatureHeader,
  type VerifyOptions,
  type WebhookEvent,
  type WebhookJwks,
  WebhookVerificationError,
} from "../webhooks/envelope.js";

// Node only (node:crypto, Buffer): reached through `@paysvc/sdk/node`, never from the root entry, which
// must bundle for a browser. Webhooks are received by servers, so verification belongs here.

function toBytes(rawBody: string | Uint8Array): Buffer {
  return typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : Buffer.from(rawBody);
}

/**
 * Verifies one delivery per conventions §7.2 and returns the parsed envelope. Pass the raw body bytes
 * as received, never a re-serialized object, and the receiving platform's own key set (its
 * `GET /webhooks/signing-keys`): each platform signs with keys of its own. Throws `WebhookVerificationError` on a stale or future
 * `t`, an unknown `kid` (a `WebhookKeyCache` refetches once on that) or a bad signature. There is no
 * secret to compare: ECDSA verification with the public key is the check.
 */
export function verifyWebhook<T = unknown>(
  rawBody: string | Uint8Array,
  headerValue: string | null | undefined,
  jwks: WebhookJwks,
  options: VerifyOptions = {},
): WebhookEvent<T> {
  const { t, v1, kid } = parseSignatureHeader(headerValue);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - t) > tolerance)
    throw new WebhookVerificationError(
      "TIMESTAMP_OUT_OF_TOLERANCE",
      `t is more than ${tolerance} s from now.`,
    );
  const jwk = jwks.keys.find((key) => key.kid === kid);
  if (!jwk) throw new WebhookVerificationError("UNKNOWN_KEY", `No signing key with kid ${kid}.`);
  const body = toBytes(rawBody);
  const signed = Buffer.concat([Buffer.from(`${t}.`, "ascii"), body]);
  let valid = false;
  try {
    const key = createPublicKey({ key: { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y }, format: "jwk" });
    valid = verify("sha256", signed, { key, dsaEncoding: "der" }, Buffer.from(v1, "base64"));
  } catch {
    valid = false;
  }
  if (!valid) throw new WebhookVerificationError("BAD_SIGNATURE", "The signature does not match the body.");
  try {
    return JSON.parse(body.toString("utf8")) as WebhookEvent<T>;
  } catch {
    throw new WebhookVerificationError("MALFORMED_BODY", "The body is not JSON.");
  }
}

/**
 * Holds one platform's JWKS and refetches it once when a delivery names an unknown `kid` (a rotated-in
 * key), as conventions §7.2 step (3) says. Concurrent refetches share one request. `fetchKeys` must
 * fetch with that platform's credentials: another platform's set never verifies its deliveries.
 */
export class WebhookKeyCache {
  #keys: WebhookJwks | undefined;
  #pending: Promise<WebhookJwks> | undefined;

  constructor(private readonly fetchKeys: () => Promise<WebhookJwks>) {}

  async keys(refresh = false): Promise<WebhookJwks> {
    if (this.#keys && !refresh) return this.#keys;
    this.#pending ??= this.fetchKeys().finally(() => {
      this.#pending = undefined;
    });
    this.#keys = await this.#pending;
    return this.#keys;
  }

  /** `verifyWebhook` with the cached keys, refetching them once on an unknown `kid`. */
  async verify<T = unknown>(
    rawBody: string | Uint8Array,
    headerValue: string | null | undefined,
    options?: VerifyOptions,
  ): Promise<WebhookEvent<T>> {
    try {
      return verifyWebhook<T>(rawBody, headerValue, await this.keys(), options);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError) || error.reason !== "UNKNOWN_KEY") throw error;
      return verifyWebhook<T>(rawBody, headerValue, await this.keys(true), options);
    }
  }
}

/** A key pair for platform tests: its JWKS and a signer, like the service's but local. */
export interface TestWebhookKey {
  jwks: WebhookJwks;
  privateKey: KeyObject;
  kid: string;
}

/** Generates a P-256 key pair and its one-key JWKS (kid = RFC 7638 thumbprint). */
export function createTestWebhookKey(): TestWebhookKey {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const { x, y } = publicKey.export({ format: "jwk" });
  if (!x || !y) throw new Error("P-256 key export lacks x or y");
  const kid = createHash("sha256")
    .update(JSON.stringify({ crv: "P-256", kty: "EC", x, y }))
    .digest("base64url");
  return {
    jwks: { keys: [{ kty: "EC", crv: "P-256", x, y, kid, use: "sig", alg: "ES256" }] },
    privateKey,
    kid,
  };
}

/**
 * Signs a payload the way the service does, for a platform's own tests of its receiver. Returns the
 * exact body, the `X-Service-Signature` value and the JWKS that verifies it.
 */
export function signTestWebhook(
  payload: string | WebhookEvent,
  options: { key?: TestWebhookKey; now?: Date } = {},
): { body: string; header: string; jwks: WebhookJwks } {
  const key = options.key ?? createTestWebhookKey();
  const body = typeof payload === "string" ? payload : JSON.stringify(payload);
  const t = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const signature = sign("sha256", Buffer.from(`${t}.${body}`, "utf8"), {
    key: key.privateKey,
    dsaEncoding: "der",
  });
  return { body, header: `t=${t},v1=${signature.toString("base64")},kid=${key.kid}`, jwks: key.jwks };
}
