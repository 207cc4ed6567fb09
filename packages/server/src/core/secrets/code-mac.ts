import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { SecretBox, SecretPurpose } from "./secret-box.js";

/** How a short code (a 6-digit OTP) is kept: a MAC under a key of its own, that key sealed. */
export interface CodeCheck {
  sealedKey: string;
  /** HMAC-SHA256 of the code under the key, hex. */
  mac: string;
}

const macOf = (key: Uint8Array, code: string) => createHmac("sha256", key).update(code, "utf8").digest();

/**
 * A 6-digit code has 10^6 values: any unkeyed digest of it, salted or not, is reversed in a second by
 * trying them all. Keyed by a random key sealed under the master key, the stored MAC tells a reader of the
 * database nothing without that key.
 */
export async function newCodeCheck(
  box: SecretBox,
  purpose: SecretPurpose,
  rowId: string,
  code: string,
): Promise<CodeCheck> {
  const key = randomBytes(32);
  const check = { sealedKey: await box.seal(purpose, rowId, key), mac: macOf(key, code).toString("hex") };
  key.fill(0);
  return check;
}

/** Whether `code` is the code of `check` (compared in constant time). */
export async function codeMatches(
  box: SecretBox,
  purpose: SecretPurpose,
  rowId: string,
  check: CodeCheck,
  code: string,
): Promise<boolean> {
  const key = await box.open(purpose, rowId, check.sealedKey);
  const given = macOf(key, code);
  key.fill(0);
  const stored = Buffer.from(check.mac, "hex");
  return stored.length === given.length && timingSafeEqual(stored, given);
}
