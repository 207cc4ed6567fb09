import { p256 } from "@noble/curves/nist.js";
import type { Executor, Tx } from "../core/db/db.js";
import type { SecretBox } from "../core/secrets/secret-box.js";

/**
 * The platform's bundle-signing key (conventions §5.4, §7.3): it signs the `data` of every bundle paysvc
 * hands to a client (`otpEncryptionTargetBundle`, `encryptedWalletCredentials`), playing the part of
 * Turnkey's enclave quorum key, so `@turnkey/crypto` verifies our bundles with
 * `dangerouslyOverrideSignerPublicKey: bundleSigningPublicKey`. One P-256 key per platform, made with the
 * platform (or on first need for platforms made before it existed), kept in `platforms.wallet_auth_config`
 * under `bundleSigningKey`, the private half sealed under the master key with the platform id
 * (core/secrets); only the public half is ever shown (`GET /config` `bundleSigningPublicKey`).
 */
export interface BundleSigningKey {
  privateKey: Uint8Array;
  /** Uncompressed (`04…`, 130 lowercase hex): the `enclaveQuorumPublic` of every bundle. */
  publicKeyHex: string;
}

/** What `wallet_auth_config.bundleSigningKey` holds. */
export interface StoredBundleSigningKey {
  /** Sealed (purpose `bundle-signing-key`, row id: the platform id). */
  privateKey: string;
  publicKey: string;
}

/** A fresh key pair of platform `platformId` in its stored form. */
export async function newBundleSigningKey(
  secrets: SecretBox,
  platformId: string,
): Promise<StoredBundleSigningKey> {
  const secret = p256.utils.randomSecretKey();
  const stored = {
    privateKey: await secrets.seal("bundle-signing-key", platformId, secret),
    publicKey: Buffer.from(p256.getPublicKey(secret, false)).toString("hex"),
  };
  secret.fill(0);
  return stored;
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
export async function bundleSigningKey(
  tx: Tx,
  secrets: SecretBox,
  platformId: string,
): Promise<BundleSigningKey> {
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
    key = await newBundleSigningKey(secrets, platformId);
    await tx.query(
      `UPDATE platforms SET wallet_auth_config = wallet_auth_config || jsonb_build_object('bundleSigningKey', $2::jsonb)
       WHERE id = $1`,
      [platformId, JSON.stringify(key)],
    );
  }
  return {
    privateKey: await secrets.open("bundle-signing-key", platformId, key.privateKey),
    publicKeyHex: key.publicKey,
  };
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
  secrets: SecretBox,
  platformId: string,
  signedData: Record<string, unknown>,
): Promise<string> {
  const key = await bundleSigningKey(tx, secrets, platformId);
  const data = new TextEncoder().encode(JSON.stringify(signedData));
  const dataSignature = signBundleData(key, data);
  key.privateKey.fill(0);
  return JSON.stringify({
    version: "v1.0.0",
    data: Buffer.from(data).toString("hex"),
    dataSignature,
    enclaveQuorumPublic: key.publicKeyHex,
  });
}
