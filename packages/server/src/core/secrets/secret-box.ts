import { KEK_ID_PATTERN, type KeyEncryptionKey } from "./kek.js";

/**
 * What a sealed value is. Part of the associated data, so a value sealed for one purpose never opens as
 * another, even in the same row.
 */
export type SecretPurpose =
  | "wallet-seed"
  | "otp-target-key"
  | "otp-code-key"
  | "bundle-signing-key"
  | "webhook-signing-key"
  | "sca-code-key"
  | "sca-totp-secret"
  | "uma-signing-key"
  | "uma-encryption-key"
  | "delegated-key";

/** Every sealed value starts with this; what does not is a value stored in clear before issue 16. */
export const SEALED_PREFIX = "sealed:v1:";

/** A sealed value that does not open: not sealed, sealed under a key not configured, or tampered with. */
export class SealedValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SealedValueError";
  }
}

export function isSealed(value: unknown): value is string {
  return typeof value === "string" && value.startsWith(SEALED_PREFIX);
}

/** The id of the key-encryption key a sealed value names, or undefined for anything else. */
export function sealedKeyId(value: unknown): string | undefined {
  if (!isSealed(value)) return undefined;
  const end = value.indexOf(":", SEALED_PREFIX.length);
  return end < 0 ? undefined : value.slice(SEALED_PREFIX.length, end);
}

// The row's id and the value's purpose: a sealed value copied to another row, or to another column of the
// same row, no longer opens.
const associatedData = (purpose: SecretPurpose, rowId: string) =>
  new TextEncoder().encode(`${SEALED_PREFIX}${purpose}:${rowId}`);

/**
 * Seals and opens the private keys and seeds kept in the database (docs/decisions.md "Security (issue
 * 16)"): `sealed:v1:<kek id>:<base64url of what the KEK returned>`, bound to a purpose and a row id. It
 * seals under `current`; it opens what names `current` or one of `previous` (a rotation in progress).
 */
export class SecretBox {
  readonly #keys = new Map<string, KeyEncryptionKey>();

  constructor(
    readonly current: KeyEncryptionKey,
    previous: readonly KeyEncryptionKey[] = [],
  ) {
    for (const key of [current, ...previous]) {
      if (!KEK_ID_PATTERN.test(key.id)) throw new Error(`key-encryption key id ${key.id} is not allowed`);
      if (!this.#keys.has(key.id)) this.#keys.set(key.id, key);
    }
  }

  /** The ids of every key this box opens with, the current one first. */
  get keyIds(): string[] {
    return [...this.#keys.keys()];
  }

  knows(keyId: string): boolean {
    return this.#keys.has(keyId);
  }

  async seal(purpose: SecretPurpose, rowId: string, plaintext: Uint8Array): Promise<string> {
    const sealed = await this.current.encrypt(plaintext, associatedData(purpose, rowId));
    return `${SEALED_PREFIX}${this.current.id}:${Buffer.from(sealed).toString("base64url")}`;
  }

  /** The plaintext of `value`, sealed for this purpose and row; SealedValueError otherwise. */
  async open(purpose: SecretPurpose, rowId: string, value: unknown): Promise<Uint8Array> {
    const keyId = sealedKeyId(value);
    if (keyId === undefined || typeof value !== "string")
      throw new SealedValueError(`the ${purpose} of ${rowId} is not sealed`);
    const key = this.#keys.get(keyId);
    if (!key)
      throw new SealedValueError(
        `the ${purpose} of ${rowId} is sealed under master key ${keyId}, which is not configured`,
      );
    const body = Buffer.from(value.slice(SEALED_PREFIX.length + keyId.length + 1), "base64url");
    try {
      return await key.decrypt(body, associatedData(purpose, rowId));
    } catch {
      throw new SealedValueError(
        `the ${purpose} of ${rowId} does not open: it was sealed for another row or purpose, or altered`,
      );
    }
  }
}
