import { p256 } from "@noble/curves/nist.js";
import { ApiError } from "../core/errors/api-error.js";

/** A decoded `Service-Wallet-Signature` (the Turnkey API-key stamp, conventions §5.3). */
export interface Stamp {
  /** Compressed P-256 public key, lowercase hex. */
  publicKey: string;
  scheme: "SIGNATURE_SCHEME_TK_API_P256";
  /** DER ECDSA signature, hex. */
  signature: string;
}

const malformed = (why: string) =>
  new ApiError("WALLET_SIGNATURE_MALFORMED", { reason: `Service-Wallet-Signature ${why}.` });

/** Decodes the header: base64url (no padding) of JSON with exactly publicKey, scheme and signature. */
export function parseStamp(header: string): Stamp {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+={0,2}$/.test(header)) throw new Error("not base64url");
    parsed = JSON.parse(Buffer.from(header, "base64url").toString("utf8"));
  } catch {
    throw malformed("is not base64url JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw malformed("is not a JSON object");
  const keys = Object.keys(parsed).sort().join(",");
  if (keys !== "publicKey,scheme,signature")
    throw malformed("must hold exactly publicKey, scheme and signature");
  const { publicKey, scheme, signature } = parsed as Record<string, unknown>;
  if (scheme !== "SIGNATURE_SCHEME_TK_API_P256") throw malformed("has an unsupported scheme");
  if (typeof publicKey !== "string" || !/^0[23][0-9a-fA-F]{64}$/.test(publicKey))
    throw malformed("publicKey is not a compressed P-256 key in hex");
  if (typeof signature !== "string" || !/^[0-9a-fA-F]{16,200}$/.test(signature) || signature.length % 2 !== 0)
    throw malformed("signature is not hex");
  return { publicKey: publicKey.toLowerCase(), scheme, signature: signature.toLowerCase() };
}

/** True when the stamp's DER signature over SHA-256(payload) verifies under its key; high-S accepted. */
export function stampVerifies(stamp: Stamp, payload: string): boolean {
  try {
    return p256.verify(
      Buffer.from(stamp.signature, "hex"),
      new TextEncoder().encode(payload),
      Buffer.from(stamp.publicKey, "hex"),
      { format: "der", lowS: false },
    );
  } catch {
    return false;
  }
}
