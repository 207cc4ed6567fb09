import { createPublicKey, type KeyObject, verify } from "node:crypto";
import { LRUCache } from "lru-cache";
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

// SubjectPublicKeyInfo header (id-ecPublicKey, prime256v1) of a 33-byte compressed point: with it a
// stamp's key becomes a Node KeyObject without decompressing the point in JavaScript.
const SPKI_P256_COMPRESSED = Buffer.from("3039301306072a8648ce3d020106082a8648ce3d030107032200", "hex");

// Parsing a key costs more than the verification itself; a session signs many stamps with one key
// (docs/decisions.md "Money at database speed (issue 20)"). Bounded, so unknown keys cannot grow it.
const keyObjects = new LRUCache<string, KeyObject>({ max: 4096 });

/** The KeyObject of a compressed P-256 key in hex; throws when it is not a point of the curve. */
function keyObjectOf(publicKeyHex: string): KeyObject {
  let key = keyObjects.get(publicKeyHex);
  if (!key) {
    const spki = Buffer.concat([SPKI_P256_COMPRESSED, Buffer.from(publicKeyHex, "hex")]);
    key = createPublicKey({ key: spki, format: "der", type: "spki" });
    keyObjects.set(publicKeyHex, key);
  }
  return key;
}

/**
 * True when the stamp's DER signature over SHA-256(payload) verifies under its key. OpenSSL (node:crypto)
 * takes strict DER only (it re-encodes and compares, so trailing bytes and non-minimal lengths fail),
 * refuses r or s outside 1..n-1 and keys off the curve, and accepts high-S: client libraries do not
 * normalise S (Turnkey's stamper does not), so requiring low-S would refuse real wallets.
 */
export function stampVerifies(stamp: Stamp, payload: string): boolean {
  try {
    return verify(
      "sha256",
      Buffer.from(payload, "utf8"),
      { key: keyObjectOf(stamp.publicKey), dsaEncoding: "der" },
      Buffer.from(stamp.signature, "hex"),
    );
  } catch {
    return false;
  }
}
