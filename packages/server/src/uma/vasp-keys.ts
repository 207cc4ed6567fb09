import { secp256k1 } from "@noble/curves/secp256k1.js";
import { getPubKeyResponse, type PubKeyResponse } from "@uma-sdk/core";
import type { Executor } from "../core/db/db.js";
import type { Deps } from "../core/deps.js";
import { secretsOf } from "../core/secrets/process-box.js";
import type { SecretBox } from "../core/secrets/secret-box.js";
import { certificateChain } from "./certificates.js";

/** How long a platform's UMA certificates are valid; a later issue rotates them (docs/guides/uma.md). */
const CERTIFICATE_YEARS = 2;

interface VaspKeyRow {
  [column: string]: unknown;
  platform_id: string;
  signing_private_key: string;
  encryption_private_key: string;
  signing_cert_chain: string;
  encryption_cert_chain: string;
}

/** A platform acting as a UMA VASP: what it signs with, and what it publishes. */
export interface VaspKeys {
  platformId: string;
  signingPrivateKey: Uint8Array;
  encryptionPrivateKey: Uint8Array;
  /** The `/.well-known/lnurlpubkey` body. */
  pubKeys: PubKeyResponse;
}

async function newKeyRow(secrets: SecretBox, platformId: string, domain: string, now: Date) {
  const validity = {
    notBefore: new Date(now.getTime() - 60 * 60 * 1000),
    notAfter: new Date(
      Date.UTC(now.getUTCFullYear() + CERTIFICATE_YEARS, now.getUTCMonth(), now.getUTCDate()),
    ),
  };
  const signing = secp256k1.utils.randomSecretKey();
  const encryption = secp256k1.utils.randomSecretKey();
  const row = {
    platform_id: platformId,
    signing_private_key: await secrets.seal("uma-signing-key", platformId, signing),
    encryption_private_key: await secrets.seal("uma-encryption-key", platformId, encryption),
    signing_cert_chain: await certificateChain(secp256k1.getPublicKey(signing, false), domain, validity),
    encryption_cert_chain: await certificateChain(
      secp256k1.getPublicKey(encryption, false),
      domain,
      validity,
    ),
  };
  signing.fill(0);
  encryption.fill(0);
  return row;
}

async function openKeys(secrets: SecretBox, row: VaspKeyRow): Promise<VaspKeys> {
  return {
    platformId: row.platform_id,
    signingPrivateKey: await secrets.open("uma-signing-key", row.platform_id, row.signing_private_key),
    encryptionPrivateKey: await secrets.open(
      "uma-encryption-key",
      row.platform_id,
      row.encryption_private_key,
    ),
    pubKeys: getPubKeyResponse({
      signingCertChainPem: row.signing_cert_chain,
      encryptionCertChainPem: row.encryption_cert_chain,
    }),
  };
}

/**
 * The platform's UMA keys, made on first use: two processes racing to make them both insert, and the
 * first insert wins (`ON CONFLICT DO NOTHING`), so every process then reads the same keys.
 */
export async function vaspKeys(
  deps: Pick<Deps, "db" | "clock" | "secrets">,
  platformId: string,
  domain: string,
): Promise<VaspKeys> {
  const secrets = secretsOf(deps);
  const read = (db: Executor) =>
    db.query<VaspKeyRow>("SELECT * FROM uma_vasps WHERE platform_id = $1", [platformId]);
  const [found] = await read(deps.db);
  if (found) return openKeys(secrets, found);
  const now = deps.clock.now();
  const row = await newKeyRow(secrets, platformId, domain, now);
  await deps.db.query(
    `INSERT INTO uma_vasps (platform_id, signing_private_key, encryption_private_key, signing_cert_chain,
       encryption_cert_chain, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (platform_id) DO NOTHING`,
    [
      row.platform_id,
      row.signing_private_key,
      row.encryption_private_key,
      row.signing_cert_chain,
      row.encryption_cert_chain,
      now,
    ],
  );
  const [stored] = await read(deps.db);
  if (!stored) throw new Error(`the UMA keys of ${platformId} were not stored`);
  return openKeys(secrets, stored);
}

/**
 * The `/.well-known/lnurlpubkey` body: each chain as hex DER certificates, leaf first, and both keys in
 * hex. Written here rather than by PubKeyResponse.toJsonString, which (SDK 1.5.0) serializes the signing
 * chain in place of the encryption chain.
 */
export function pubKeysBody(keys: PubKeyResponse): Record<string, unknown> {
  const hex = (chain: PubKeyResponse["signingCertChain"]) => chain?.map((cert) => cert.raw.toString("hex"));
  return {
    signingCertChain: hex(keys.signingCertChain),
    encryptionCertChain: hex(keys.encryptionCertChain),
    signingPubKey: Buffer.from(keys.getSigningPubKey()).toString("hex"),
    encryptionPubKey: Buffer.from(keys.getEncryptionPubKey()).toString("hex"),
  };
}
