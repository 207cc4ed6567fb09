/**
 * A key-encryption key (KEK): the master key that seals private keys and seeds at rest (secret-box.ts).
 * The local implementation (local-kek.ts) holds the key in this process. A KMS or a Vault transit backend
 * implements the same two calls remotely, which is why they are async, and never hands the key out:
 * AWS KMS `Encrypt`/`Decrypt` with the AAD as encryption context, Vault transit `encrypt`/`decrypt` on an
 * aes256-gcm96 key with `associated_data` (docs/decisions.md "Security (issue 16)", "Secrets at rest").
 */
export interface KeyEncryptionKey {
  /**
   * Names this key (a backend: this key version) in every envelope it seals, in clear, so a value sealed
   * under an older key is opened with that key while a rotation runs. Unique per key; `[A-Za-z0-9._-]`.
   */
  readonly id: string;
  /** Encrypts `plaintext`, authenticating `aad` too; the result is opaque (it carries its nonce and tag). */
  encrypt(plaintext: Uint8Array, aad: Uint8Array): Promise<Uint8Array>;
  /** The inverse of `encrypt`; rejects a ciphertext that was altered or sealed with another `aad`. */
  decrypt(ciphertext: Uint8Array, aad: Uint8Array): Promise<Uint8Array>;
}

/** What a KEK id may contain: it sits between `:` separators of the envelope. */
export const KEK_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
