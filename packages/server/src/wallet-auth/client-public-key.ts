import { p256 } from "@noble/curves/nist.js";
import { invalidField } from "../core/errors/api-error.js";

/** A P-256 public key in hex, compressed or uncompressed (conventions §5.2). */
export const CLIENT_PUBLIC_KEY_PATTERN = "^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$";
const pattern = new RegExp(CLIENT_PUBLIC_KEY_PATTERN);

/** Checks `clientPublicKey` is shaped right and a point of the curve; `400 INVALID_INPUT` on the field otherwise. */
export function checkClientPublicKey(value: unknown, field = "clientPublicKey"): string {
  if (typeof value !== "string" || !pattern.test(value))
    throw invalidField(field, "must be a P-256 public key in hex (02/03 + 64 or 04 + 128 hex digits)", {
      pattern: CLIENT_PUBLIC_KEY_PATTERN,
    });
  try {
    p256.Point.fromHex(value.toLowerCase()).assertValidity();
  } catch {
    throw invalidField(field, "is not a point of the P-256 curve");
  }
  return value;
}
