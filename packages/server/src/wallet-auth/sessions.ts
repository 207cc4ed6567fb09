import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { createBase58check } from "@scure/base";
import type { Executor, Tx } from "../core/db/db.js";
import { hpkeSeal } from "../core/hpke.js";
import { newId } from "../core/ids.js";
import type { AuthSession } from "./schemas.js";
import { type AuthMethodRow, type AuthSessionRow, activeSessionsByKey, insertSession } from "./store.js";
import { toAuthSession } from "./wire.js";

/** A session lasts 15 minutes from creation; use does not extend it (conventions §5.1). */
export const SESSION_TTL_MS = 15 * 60 * 1000;
const base58check = createBase58check(sha256);

/** Compressed lowercase hex of a P-256 public key given in either form. */
export function compressedKeyHex(publicKeyHex: string): string {
  return p256.Point.fromHex(publicKeyHex.toLowerCase()).toHex(true);
}

/** Opens a session whose stamps are signed by `publicKeyHex` (the client's key, or one paysvc made). */
export async function openSession(
  tx: Tx,
  method: AuthMethodRow,
  publicKeyHex: string,
  now: Date,
): Promise<AuthSessionRow> {
  const row: AuthSessionRow = {
    id: newId("Session"),
    platform_id: method.platform_id,
    account_id: method.account_id,
    auth_method_id: method.id,
    public_key: compressedKeyHex(publicKeyHex),
    expires_at: new Date(now.getTime() + SESSION_TTL_MS),
    revoked_at: null,
    created_at: now,
    updated_at: now,
  };
  await insertSession(tx, row);
  return row;
}

/**
 * OAUTH and PASSKEY verifies (conventions §5.4): paysvc makes the session key pair, keeps only its public
 * half, and returns the private scalar sealed to the client's key as `encryptedSessionSigningKey`
 * (base58check of compressed encapsulated key ‖ ciphertext, what `decryptCredentialBundle` reads).
 */
export async function openSealedSession(
  tx: Tx,
  method: AuthMethodRow,
  clientPublicKeyHex: string,
  now: Date,
): Promise<AuthSession> {
  const secretKey = p256.utils.randomSecretKey();
  const session = await openSession(
    tx,
    method,
    Buffer.from(p256.getPublicKey(secretKey, true)).toString("hex"),
    now,
  );
  const { enc, ciphertext } = await hpkeSeal(
    Buffer.from(clientPublicKeyHex, "hex"),
    secretKey,
    "turnkey_hpke",
  );
  const compressedEnc = p256.Point.fromBytes(enc).toBytes(true);
  const bundle = base58check.encode(new Uint8Array([...compressedEnc, ...ciphertext]));
  secretKey.fill(0);
  return toAuthSession(session, method, bundle);
}

/** Whether `publicKey` is the key of an active session of one of `accountIds` at `now`. */
export async function isActiveSessionKey(
  db: Executor,
  accountIds: string[],
  publicKey: string,
  now: Date,
): Promise<boolean> {
  return (await activeSessionsByKey(db, accountIds, publicKey, now)).length > 0;
}
