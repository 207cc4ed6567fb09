import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { p256 } from "@noble/curves/nist.js";
import { mnemonicToEntropy } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { decryptExportBundle, generateP256KeyPair } from "@turnkey/crypto";
import { expect } from "vitest";
import type { Executor } from "../../src/core/db/db.js";
import type { SecretBox } from "../../src/core/secrets/secret-box.js";
import type { TestClient } from "../harness.js";
import { type KeyPair, newWalletCustomer, otpLogin, signedRequest } from "../wallet-auth/client.js";

// Issue 16 item 4: the flows that put secrets in the database, and the attacker's view of it: every
// table as text, every file of an embedded data directory as bytes.

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** A wallet customer logged in by OTP (sandbox code) and its session key. */
export async function loggedInWallet(client: TestClient) {
  const customer = await newWalletCustomer(client);
  const { key } = await otpLogin(client, customer.emailOtp.id);
  return { ...customer, sessionKey: key };
}

/** One export of the wallet, opened the way a client does (`@turnkey/crypto`): its 24-word mnemonic. */
export async function exportMnemonic(client: TestClient, accountId: string, sessionKey: KeyPair) {
  const config = await client.get<{ bundleSigningPublicKey: string }>("/config");
  const exportKey = generateP256KeyPair();
  const exported = await signedRequest<{ encryptedWalletCredentials: string }>(
    client,
    "POST",
    `/internal-accounts/${accountId}/export`,
    { clientPublicKey: exportKey.publicKeyUncompressed },
    sessionKey,
  );
  expect(exported.status, exported.text).toBe(200);
  return decryptExportBundle({
    exportBundle: exported.body.encryptedWalletCredentials,
    embeddedKey: exportKey.privateKey,
    organizationId: accountId,
    dangerouslyOverrideSignerPublicKey: config.body.bundleSigningPublicKey,
    returnMnemonic: true,
  });
}

/** The secrets an attacker reading the storage looks for, each in the forms it could be stored in. */
export type Needles = Map<string, Buffer[]>;

function keyForms(bytes: Uint8Array): Buffer[] {
  const raw = Buffer.from(bytes);
  return [
    raw,
    Buffer.from(raw.toString("hex")),
    Buffer.from(raw.toString("base64")),
    Buffer.from(raw.toString("base64url")),
  ];
}

/**
 * What the flows left in the database, opened with the service's master key (which a reader of the
 * database does not have) and checked against the public halves the service shows: the wallet seed
 * (from the exported mnemonic), the OTP challenges' target and code keys, the platform's bundle-signing
 * key and its webhook private keys' `d`.
 */
export async function plaintextSecrets(
  db: Executor,
  box: SecretBox,
  wallet: { accountId: string; emailOtpId: string; platformId: string; mnemonic: string },
): Promise<Needles> {
  const needles: Needles = new Map();
  const entropy = mnemonicToEntropy(wallet.mnemonic, wordlist);
  needles.set("wallet seed entropy", keyForms(entropy));
  const words = wallet.mnemonic.split(" ");
  needles.set("wallet mnemonic", [Buffer.from(wallet.mnemonic), Buffer.from(words.slice(0, 4).join(" "))]);

  const challenges = await db.query<{
    id: string;
    target_private_key: string;
    target_public_key: string;
    code_key: string;
  }>(
    "SELECT id, target_private_key, target_public_key, code_key FROM otp_challenges WHERE auth_method_id = $1",
    [wallet.emailOtpId],
  );
  expect(challenges.length).toBeGreaterThan(0);
  for (const [i, row] of challenges.entries()) {
    const target = await box.open("otp-target-key", row.id, row.target_private_key);
    expect(hex(p256.getPublicKey(target, false))).toBe(row.target_public_key);
    needles.set(`OTP target private key ${i}`, keyForms(target));
    needles.set(`OTP code key ${i}`, keyForms(await box.open("otp-code-key", row.id, row.code_key)));
  }

  const [platform] = await db.query<{
    config: { bundleSigningKey: { privateKey: string; publicKey: string } };
  }>("SELECT wallet_auth_config AS config FROM platforms WHERE id = $1", [wallet.platformId]);
  const stored = platform?.config.bundleSigningKey;
  if (!stored) throw new Error("the platform has no bundle-signing key");
  const bundleKey = await box.open("bundle-signing-key", wallet.platformId, stored.privateKey);
  expect(hex(p256.getPublicKey(bundleKey, false))).toBe(stored.publicKey);
  needles.set("bundle-signing private key", keyForms(bundleKey));

  const keys = await db.query<{ kid: string; public_jwk: { x: string }; private_jwk: string }>(
    "SELECT kid, public_jwk, private_jwk FROM webhook_signing_keys WHERE platform_id = $1",
    [wallet.platformId],
  );
  expect(keys.length).toBeGreaterThan(0);
  for (const row of keys) {
    const jwk = JSON.parse(
      new TextDecoder().decode(
        await box.open("webhook-signing-key", `${wallet.platformId}/${row.kid}`, row.private_jwk),
      ),
    ) as { d: string; x: string };
    expect(jwk.x).toBe(row.public_jwk.x);
    needles.set(`webhook private d of ${row.kid}`, keyForms(Buffer.from(jwk.d, "base64url")));
  }
  return needles;
}

/** Which needles occur in which of `places` (name → bytes); empty when none does. */
export function findNeedles(needles: Needles, places: Map<string, Buffer>): string[] {
  const found: string[] = [];
  for (const [secret, forms] of needles)
    for (const [place, bytes] of places)
      if (forms.some((form) => bytes.includes(form))) found.push(`${secret} in ${place}`);
  return found;
}

/** Every table of the database, one text per table: what a dump or a SQL reader sees. */
export async function tablesAsText(db: Executor): Promise<Map<string, Buffer>> {
  const tables = await db.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
  );
  const texts = new Map<string, Buffer>();
  for (const { name } of tables) {
    const rows = await db.query<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`);
    texts.set(name, Buffer.from(rows.map((r) => r.row).join("\n")));
  }
  return texts;
}

/** Every file under `dir`, as bytes: the data files, the write-ahead log, the key and credential files. */
export async function filesUnder(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(path, await readFile(path));
    }
  return files;
}
