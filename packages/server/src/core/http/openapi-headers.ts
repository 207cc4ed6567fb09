/**
 * Header parameters the route schemas do not declare, because the mechanisms that read them sit outside
 * the routes: the signed retry (wallet-auth, conventions §5.3) and Idempotency-Key (core/idempotency).
 */

/** Operations that are signed retries: the retry carries the stamp and the first call's Request-Id. */
const SIGNED_RETRY = new Set([
  "PATCH /customers/{customerId}",
  "PATCH /internal-accounts/{accountId}",
  "POST /internal-accounts/{accountId}/export",
  "POST /auth/credentials",
  "DELETE /auth/credentials/{id}",
  "POST /auth/credentials/{id}/verify",
  "DELETE /auth/sessions/{id}",
  "POST /auth/sessions/{id}/refresh",
  "POST /auth/delegated-keys",
]);

/** Operations that take a wallet stamp on the first call itself (an EMBEDDED_WALLET source), no Request-Id. */
const WALLET_SIGNED = new Set(["POST /quotes/{quoteId}/execute"]);

const signature = {
  type: "string",
  description:
    "The retry's API-key stamp (base64url JSON `{publicKey, scheme, signature}`) of the `payloadToSign` the first call answered with 202, by an active session key of the wallet. Absent on the first call.",
};
const walletSignature = {
  type: "string",
  description:
    "From an EMBEDDED_WALLET source: the stamp of `paymentInstructions[].accountOrWalletInfo.payloadToSign` by an active session key of that wallet.",
};
const requestId = {
  type: "string",
  description:
    "The `requestId` of the first call's 202 answer; sent with Service-Wallet-Signature on the retry.",
};
const idempotencyKey = {
  type: "string",
  minLength: 1,
  maxLength: 255,
  pattern: "^[\\x20-\\x7e]+$",
  description:
    "Makes the POST safe to retry: the first response to a key is stored for 24 hours and replayed (with `Idempotent-Replayed: true`) to the same request; a different request with the key is 409 CONFLICT.",
};

interface RouteConfigLike {
  idempotency?: false;
  public?: boolean;
  auth?: string;
}

/** The `headers` schema to document for an operation, merged with the route's own; undefined if none. */
export function documentHeaders(
  key: string,
  method: string,
  config: unknown,
  own: unknown,
): Record<string, unknown> | undefined {
  const route = (config ?? {}) as RouteConfigLike;
  const properties: Record<string, unknown> = {};
  if (SIGNED_RETRY.has(key)) {
    properties["Service-Wallet-Signature"] = signature;
    properties["Request-Id"] = requestId;
  }
  if (WALLET_SIGNED.has(key)) properties["Service-Wallet-Signature"] = walletSignature;
  const takesIdempotencyKey =
    method.toUpperCase() === "POST" && route.idempotency !== false && route.auth !== "none" && !route.public;
  if (takesIdempotencyKey) properties["Idempotency-Key"] = idempotencyKey;
  if (Object.keys(properties).length === 0) return undefined;
  const base = (own && typeof own === "object" ? own : {}) as { properties?: Record<string, unknown> };
  return { ...base, type: "object", properties: { ...base.properties, ...properties } };
}
