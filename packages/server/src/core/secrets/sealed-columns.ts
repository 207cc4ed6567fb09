import type { SecretPurpose } from "./secret-box.js";

/**
 * One column of sealed values, for the passes that touch every row (reseal.ts): the start's sealing of
 * values left in clear, and `paysvc rotate-master-key`. The domain code that writes these columns seals
 * with the same purpose and the same row id (the SQL `rowId` here and its TypeScript twin there).
 */
export interface SealedColumn {
  /** What one value is, for messages and counts. */
  label: string;
  purpose: SecretPurpose;
  table: string;
  /** SQL: the row id bound into the associated data, as text. */
  rowId: string;
  /** SQL: the stored value as text (an envelope, or a value from before sealing); NULL: nothing kept. */
  value: string;
  /** SQL: the assignment that stores the envelope `$1`. */
  assign: string;
  /** The plaintext a value stored in clear stands for; absent where values were never stored in clear. */
  fromClear?: (value: string) => Uint8Array;
}

function fromHexKey(value: string): Uint8Array {
  if (!/^[0-9a-f]{64}$/i.test(value)) throw new Error("a value stored in clear is not a 32-byte hex key");
  return Buffer.from(value, "hex");
}

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  {
    // wallet-auth/export.ts: the BIP-39 entropy, 32 bytes, once hex in clear.
    label: "wallet seed",
    purpose: "wallet-seed",
    table: "embedded_wallet_seeds",
    rowId: "account_id",
    value: "entropy",
    assign: "entropy = $1",
    fromClear: fromHexKey,
  },
  {
    // wallet-auth/otp.ts: the HPKE target private key, 32 bytes, once hex in clear.
    label: "OTP target key",
    purpose: "otp-target-key",
    table: "otp_challenges",
    rowId: "id",
    value: "target_private_key",
    assign: "target_private_key = $1",
    fromClear: fromHexKey,
  },
  {
    // wallet-auth/otp.ts: the HMAC key of the code (core/secrets/code-mac.ts); sealed since it exists.
    label: "OTP code key",
    purpose: "otp-code-key",
    table: "otp_challenges",
    rowId: "id",
    value: "code_key",
    assign: "code_key = $1",
  },
  {
    // sca/challenges.ts: the HMAC key of an SCA OTP code (code-mac.ts); sealed since it exists.
    label: "SCA code key",
    purpose: "sca-code-key",
    table: "sca_challenges",
    rowId: "id",
    value: "code_key",
    assign: "code_key = $1",
  },
  {
    // sca/totp.ts: a customer's RFC 6238 TOTP secret (20 bytes); sealed since it exists.
    label: "SCA TOTP secret",
    purpose: "sca-totp-secret",
    table: "sca_totp_factors",
    rowId: "id",
    value: "secret",
    assign: "secret = $1",
  },
  {
    // wallet-auth/bundle-signing.ts: `wallet_auth_config.bundleSigningKey.privateKey`, 32 bytes, once hex.
    label: "bundle-signing key",
    purpose: "bundle-signing-key",
    table: "platforms",
    rowId: "id",
    value: "wallet_auth_config #>> '{bundleSigningKey,privateKey}'",
    assign:
      "wallet_auth_config = jsonb_set(wallet_auth_config, '{bundleSigningKey,privateKey}', to_jsonb($1::text))",
    fromClear: fromHexKey,
  },
  {
    // webhooks/signing-keys.ts: the private JWK as JSON text, kept as a jsonb string; once a jsonb object.
    label: "webhook signing key",
    purpose: "webhook-signing-key",
    table: "webhook_signing_keys",
    rowId: "platform_id || '/' || kid",
    value:
      "CASE jsonb_typeof(private_jwk) WHEN 'string' THEN private_jwk #>> '{}' ELSE private_jwk::text END",
    assign: "private_jwk = to_jsonb($1::text)",
    fromClear: (value) => new TextEncoder().encode(value),
  },
  {
    // uma/vasp-keys.ts: the platform's secp256k1 UMA signing key, 32 bytes; sealed since it exists.
    label: "UMA signing key",
    purpose: "uma-signing-key",
    table: "uma_vasps",
    rowId: "platform_id",
    value: "signing_private_key",
    assign: "signing_private_key = $1",
  },
  {
    // uma/vasp-keys.ts: the platform's secp256k1 UMA encryption key, 32 bytes; sealed since it exists.
    label: "UMA encryption key",
    purpose: "uma-encryption-key",
    table: "uma_vasps",
    rowId: "platform_id",
    value: "encryption_private_key",
    assign: "encryption_private_key = $1",
  },
  {
    // wallet-auth/delegated-keys.ts: a delegated key's P-256 private scalar, 32 bytes; sealed since it exists,
    // NULL once the key is revoked.
    label: "delegated key",
    purpose: "delegated-key",
    table: "delegated_keys",
    rowId: "id",
    value: "private_key",
    assign: "private_key = $1",
  },
];
