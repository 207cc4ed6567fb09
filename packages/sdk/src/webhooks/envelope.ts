// What a webhook delivery is and how its signature header reads (conventions §7.1, §7.2): plain data and
// parsing only, so the browser-safe root entry can name them. Checking a signature needs an ECDSA
// verifier: that is in `@paysvc/sdk/node` (node/verify.ts).

/** One public key of `GET /webhooks/signing-keys` (conventions §7.2): a key of one platform. */
export interface WebhookJwk {
  kty: "EC";
  crv: "P-256";
  x: string;
  y: string;
  kid: string;
  use: "sig";
  alg: "ES256";
}

export interface WebhookJwks {
  keys: WebhookJwk[];
}

/** The envelope every delivery carries (conventions §7.1). */
export interface WebhookEvent<T = unknown> {
  id: string;
  type: string;
  timestamp: string;
  data: T;
}

export type WebhookVerificationFailure =
  | "MALFORMED_HEADER"
  | "TIMESTAMP_OUT_OF_TOLERANCE"
  | "UNKNOWN_KEY"
  | "BAD_SIGNATURE"
  | "MALFORMED_BODY";

/** Why a delivery was rejected; answer it with a 4xx so the service retries or gives up. */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookVerificationFailure;

  constructor(reason: WebhookVerificationFailure, message: string) {
    super(message);
    this.name = "WebhookVerificationError";
    this.reason = reason;
  }
}

export interface VerifyOptions {
  /** Largest accepted age (and clock skew ahead) of `t`, in seconds. Default 300; never 0 by default. */
  toleranceSeconds?: number;
  /** The receiver's now; defaults to the system clock. */
  now?: Date;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Step (1) of §7.2: split on `,`, then each part on its first `=`. */
export function parseSignatureHeader(header: string | null | undefined): {
  t: number;
  v1: string;
  kid: string;
} {
  const parts = new Map<string, string>();
  for (const part of (header ?? "").split(",")) {
    const at = part.indexOf("=");
    if (at > 0) parts.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  const t = parts.get("t");
  const v1 = parts.get("v1");
  const kid = parts.get("kid");
  if (!t || !/^\d{1,12}$/.test(t) || !v1 || !kid)
    throw new WebhookVerificationError("MALFORMED_HEADER", "X-Service-Signature needs t, v1 and kid.");
  return { t: Number(t), v1, kid };
}
