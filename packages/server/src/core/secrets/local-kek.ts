import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  type KeyObject,
  randomBytes,
} from "node:crypto";
import type { KeyEncryptionKey } from "./kek.js";

export const MASTER_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM under a master key held in this process (node:crypto). Each call draws a random 96-bit
 * nonce, safe for far more than 2^30 seals under one key; the output is `iv | ciphertext | tag`.
 */
export class LocalKek implements KeyEncryptionKey {
  readonly id: string;
  readonly #key: KeyObject;

  constructor(key: Uint8Array) {
    if (key.length !== MASTER_KEY_BYTES) throw new Error(`a master key is ${MASTER_KEY_BYTES} bytes`);
    this.#key = createSecretKey(Buffer.from(key));
    // A fingerprint: the same key always gets the same id (a rotation finds the key an envelope names), and
    // an HMAC under the key itself says nothing about the key.
    const fingerprint = createHmac("sha256", this.#key).update("paysvc master key id").digest("hex");
    this.id = `local-${fingerprint.slice(0, 16)}`;
  }

  async encrypt(plaintext: Uint8Array, aad: Uint8Array): Promise<Uint8Array> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad);
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([iv, ciphertext, cipher.getAuthTag()]);
  }

  async decrypt(sealed: Uint8Array, aad: Uint8Array): Promise<Uint8Array> {
    if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error("sealed value too short");
    const bytes = Buffer.from(sealed);
    const decipher = createDecipheriv("aes-256-gcm", this.#key, bytes.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(aad);
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]);
  }
}

/** A new master key in the text form key files hold (64 hex digits). */
export function newMasterKeyText(): string {
  return randomBytes(MASTER_KEY_BYTES).toString("hex");
}

/**
 * A master key written as 64 hex digits or as base64 / base64url of 32 bytes. `source` names where it
 * came from in the error, which never repeats the value.
 */
export function parseMasterKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    if (bytes.length === MASTER_KEY_BYTES) return bytes;
  }
  throw new Error(
    `${source} is not a master key: it must be ${MASTER_KEY_BYTES} bytes, written as 64 hex digits or in base64 (make one with: openssl rand -hex 32)`,
  );
}
