import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { sha256Hex } from "../hash.js";

// Idempotency records are keyed and sealed by the client's Idempotency-Key, which the service never
// stores: someone who can read the database cannot replay a stored response (a new token's clientSecret, a
// PAN reveal link) nor test guesses of a request body (a 4-digit PIN) against its fingerprint.

function derive(key: string, purpose: string): Buffer {
  return Buffer.from(
    hkdfSync("sha256", Buffer.from(key, "utf8"), Buffer.alloc(0), `paysvc idempotency ${purpose}`, 32),
  );
}

/** What the key column holds: a hash of the client's key, never the key. */
export function keyDigest(key: string): string {
  return sha256Hex(`paysvc idempotency key\n${key}`);
}

/** The request fingerprint, keyed by the client's key (HMAC-SHA256). */
export function keyedFingerprint(key: string, request: string): string {
  return createHmac("sha256", derive(key, "fingerprint")).update(request).digest("hex");
}

/** Seals a stored response body (AES-256-GCM under a key derived from the client's key). */
export function seal(key: string, body: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derive(key, "response"), iv);
  const sealed = Buffer.concat([iv, cipher.update(body, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `v1:${sealed.toString("base64")}`;
}

/** Opens a sealed body; null when it was not sealed under this key. */
export function open(key: string, stored: string): string | null {
  if (!stored.startsWith("v1:")) return null;
  const raw = Buffer.from(stored.slice(3), "base64");
  try {
    const decipher = createDecipheriv("aes-256-gcm", derive(key, "response"), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    return null;
  }
}
