import { p256 } from "@noble/curves/nist.js";
import type { Executor, Tx } from "../core/db/db.js";

/**
 * The platform's bundle-signing key (conventions §5.4, §7.3): it signs the `data` of every bundle paysvc
 * hands to a client (`otpEncryptionTargetBundle`, `encryptedWalletCredentials`), playing the part of
 * Turnkey's enclave quorum key, so `@turnkey/crypto` verifies our bundles with
 * `dangerouslyOverrideSignerPublicKey: bundleSigningPublicKey`. One P-256 key per platform, made with the
 * platform (or on first need for platforms made before it existed), kept in `platforms.wallet_auth_config`
 * under `bundleSigningKey`; only the public half is ever shown (`GET /config` `bundleSigningPublicKey`).
 */
export interface BundleSigningKey {
  privateKey: Uint8Array;
  /** Uncompressed (`04…`, 130 lowercase hex): the `enclaveQuorumPublic` of every bundle. */
  publicKeyHex: string;
}

/** What `wallet_auth_config.bundleSigningKey` holds. */
export interface StoredBundleSigningKey {
  privateKey: string;
  publicKey: string;
}

/** A fresh key pair in its stored form. */
export function newBundleSigningKey(): StoredBundleSigningKey {
  const secret = p256.utils.randomSecretKey();
  return {
    privateKey: Buffer.from(secret).toString("hex"),
    publicKey: Buffer.from(p256.getPublicKey(secret, false)).toString("hex"),
  };
}

function storedKey(config: unknown): StoredBundleSigningKey | undefined {
  const key = (config as { bundleSigningKey?: StoredBundleSigningKey } | null)?.bundleSigningKey;
  return key && typeof key.privateKey === "string" && typeof key.publicKey === "string" ? key : undefined;
}

/** The public half of a stored key, if the platform has one yet (what `GET /config` shows). */
export function storedBundleSigningPublicKey(walletAuthConfig: unknown): string | undefined {
  return storedKey(walletAuthConfig)?.publicKey;
}

/** The platform's bundle-signing key, created under the platform row lock on first need. */
export async function bundleSigningKey(tx: Tx, platformId: string): Promise<BundleSigningKey> {
  const read = async (db: Executor, lock: boolean) => {
    const [row] = await db.query<{ wallet_auth_config: unknown }>(
      `SELECT wallet_auth_config FROM platforms WHERE id = $1${lock ? " FOR UPDATE" : ""}`,
      [platformId],
    );
    if (!row) throw new Error(`platform ${platformId} not found`);
    return storedKey(row.wallet_auth_config);
  };
  let key = (await read(tx, false)) ?? (await read(tx, true));
  if (!key) {
    key = newBundleSigningKey();
    await tx.query(
      `UPDATE platforms SET wallet_auth_config = wallet_auth_config || jsonb_build_object('bundleSigningKey', $2::jsonb)
       WHERE id = $1`,
      [platformId, JSON.stringify(key)],
    );
  }
  return { privateKey: Buffer.from(key.privateKey, "hex"), publicKeyHex: key.publicKey };
}

/** Hex DER ECDSA P-256 signature over SHA-256 of `data` (the bytes the bundle's hex `data` decodes to). */
export function signBundleData(key: BundleSigningKey, data: Uint8Array): string {
  return Buffer.from(p256.sign(data, key.privateKey, { format: "der", lowS: true })).toString("hex");
}

/**
 * A signed bundle in the `@turnkey/crypto` layout: JSON text `{version, data, dataSignature,
 * enclaveQuorumPublic}`, where `data` is the hex of the UTF-8 JSON of `signedData`.
 */
export async function signedBundle(
  tx: Tx,
  platformId: string,
  signedData: Record<string, unknown>,
): Promise<string> {
  const key = await bundleSigningKey(tx, platformId);
  const data = new TextEncoder().encode(JSON.stringify(signedData));
  return JSON.stringify({
    version: "v1.0.0",
    data: Buffer.from(data).toString("hex"),
    dataSignature: signBundleData(key, data),
    enclaveQuorumPublic: key.publicKeyHex,
  });
}
