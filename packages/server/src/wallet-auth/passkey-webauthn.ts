import { createHash } from "node:crypto";
import { type ParsedAuthenticatorData, parseAuthenticatorData } from "@simplewebauthn/server/helpers";

/** The fields of `clientDataJSON` the checks read (WebAuthn §5.8.1). */
export interface ClientData {
  type: string;
  challenge: string;
  origin: string;
}

const base64urlPattern = /^[A-Za-z0-9_-]+$/;

/** Bytes of an unpadded base64url string; undefined when it is not one (padding is tolerated and dropped). */
export function fromBase64url(value: unknown): Uint8Array<ArrayBuffer> | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.replace(/=+$/, "");
  if (!base64urlPattern.test(text)) return undefined;
  return new Uint8Array(Buffer.from(text, "base64url"));
}

export const toBase64url = (bytes: Uint8Array | string) =>
  (typeof bytes === "string" ? Buffer.from(bytes, "utf8") : Buffer.from(bytes)).toString("base64url");

/** Parses base64url `clientDataJSON` into its type, challenge and origin; undefined when it is not that. */
export function decodeClientData(value: unknown): ClientData | undefined {
  const bytes = fromBase64url(value);
  if (!bytes) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(bytes).toString("utf8"));
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { type, challenge, origin } = parsed as Record<string, unknown>;
    if (typeof type !== "string" || typeof challenge !== "string" || typeof origin !== "string")
      return undefined;
    return { type, challenge, origin };
  } catch {
    return undefined;
  }
}

/** Parsed authenticator data, or undefined when the bytes are not authenticator data. */
export function decodeAuthenticatorData(bytes: Uint8Array<ArrayBuffer>): ParsedAuthenticatorData | undefined {
  if (bytes.length < 37) return undefined;
  try {
    return parseAuthenticatorData(bytes);
  } catch {
    return undefined;
  }
}

/** Whether authenticator data's rpIdHash is SHA-256 of `rpId`. */
export function namesRpId(authData: ParsedAuthenticatorData, rpId: string): boolean {
  const expected = createHash("sha256").update(rpId, "utf8").digest();
  return Buffer.from(authData.rpIdHash).equals(expected);
}
