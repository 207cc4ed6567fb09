import { createPublicKey, generateKeyPairSync, randomBytes, verify } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { entropyToMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { loadMigrations, migrate } from "../../src/core/db/migrate.js";
import { sealSecretsAtStart } from "../../src/core/secrets/load.js";
import { isSealed } from "../../src/core/secrets/secret-box.js";
import { jwkThumbprint, signatureHeader } from "../../src/webhooks/signing-keys.js";
import { startServer, type TestServer } from "../harness.js";
import { openEmptyTestDb } from "../test-db.js";
import { readTargetBundle } from "../wallet-auth/client.js";
import { testSecrets } from "../worker-app.js";
import { exportMnemonic, loggedInWallet } from "./helpers.js";

// Issue 16 item 4, both databases: values stored in clear before sealing existed. A migration cannot
// encrypt, so each start seals what it finds in clear (core/secrets/load.ts); the OTP digests cannot be
// turned into keyed checks, so migration 0017 voids the open challenges and drops the digests.

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

describe("values stored in clear before issue 16 (item 4)", () => {
  test("are sealed at the next start, once, and keep working: the same mnemonic, bundle-signing key and webhook key", async () => {
    const platform = await server.newPlatform();
    const client = server.client.as(platform);
    const wallet = await loggedInWallet(client);
    await exportMnemonic(client, wallet.accountId, wallet.sessionKey);
    const challenged = await client.post(`/auth/credentials/${wallet.emailOtp.id}/challenge`);
    expect(challenged.status, challenged.text).toBe(200);

    // The rows as they were before: each secret in clear.
    const entropy = randomBytes(32);
    await server.db.query("UPDATE embedded_wallet_seeds SET entropy = $2 WHERE account_id = $1", [
      wallet.accountId,
      hex(entropy),
    ]);
    const bundleKey = p256.utils.randomSecretKey();
    const bundlePublic = hex(p256.getPublicKey(bundleKey, false));
    await server.db.query(
      `UPDATE platforms SET wallet_auth_config = jsonb_set(wallet_auth_config, '{bundleSigningKey}', $2::jsonb)
       WHERE id = $1`,
      [platform.platformId, JSON.stringify({ privateKey: hex(bundleKey), publicKey: bundlePublic })],
    );
    const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const { x = "", y = "" } = publicKey.export({ format: "jwk" });
    const kid = jwkThumbprint({ crv: "P-256", kty: "EC", x, y });
    await server.db.query(
      `UPDATE webhook_signing_keys SET kid = $2, public_jwk = $3::jsonb, private_jwk = $4::jsonb
       WHERE platform_id = $1`,
      [
        platform.platformId,
        kid,
        JSON.stringify({ kty: "EC", crv: "P-256", x, y, kid, use: "sig", alg: "ES256" }),
        JSON.stringify(privateKey.export({ format: "jwk" })),
      ],
    );
    const target = p256.utils.randomSecretKey();
    const [challenge] = await server.db.query<{ id: string }>(
      `UPDATE otp_challenges SET target_private_key = $2, target_public_key = $3, code_key = NULL,
         code_hmac = NULL, state = 'VOID' WHERE auth_method_id = $1 AND state = 'OPEN' RETURNING id`,
      [wallet.emailOtp.id, hex(target), hex(p256.getPublicKey(target, false))],
    );
    if (!challenge) throw new Error("no open challenge");

    expect(await sealSecretsAtStart(server.db, testSecrets)).toBe(4);
    expect(await sealSecretsAtStart(server.db, testSecrets)).toBe(0);

    const [seed] = await server.db.query<{ entropy: string }>(
      "SELECT entropy FROM embedded_wallet_seeds WHERE account_id = $1",
      [wallet.accountId],
    );
    expect(Buffer.from(await testSecrets.open("wallet-seed", wallet.accountId, seed?.entropy))).toEqual(
      entropy,
    );
    const [otp] = await server.db.query<{ target_private_key: string }>(
      "SELECT target_private_key FROM otp_challenges WHERE id = $1",
      [challenge.id],
    );
    expect(isSealed(otp?.target_private_key)).toBe(true);
    expect(hex(await testSecrets.open("otp-target-key", challenge.id, otp?.target_private_key))).toBe(
      hex(target),
    );
    const [key] = await server.db.query<{ private_jwk: unknown }>(
      "SELECT private_jwk FROM webhook_signing_keys WHERE platform_id = $1",
      [platform.platformId],
    );
    expect(isSealed(key?.private_jwk)).toBe(true);

    expect(await exportMnemonic(client, wallet.accountId, wallet.sessionKey)).toBe(
      entropyToMnemonic(entropy, wordlist),
    );
    expect(
      (await client.get<{ bundleSigningPublicKey: string }>("/config")).body.bundleSigningPublicKey,
    ).toBe(bundlePublic);
    const again = await client.post<{ otpEncryptionTargetBundle: string }>(
      `/auth/credentials/${wallet.emailOtp.id}/challenge`,
    );
    expect(readTargetBundle(again.body.otpEncryptionTargetBundle).enclaveQuorumPublic).toBe(bundlePublic);
    const now = new Date();
    const header = await signatureHeader(server.db, platform.platformId, "{}", now, testSecrets);
    const parts = Object.fromEntries(
      header.split(",").map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)]),
    );
    expect(parts.kid).toBe(kid);
    expect(
      verify(
        "sha256",
        Buffer.from(`${parts.t}.{}`),
        {
          key: createPublicKey({ key: { kty: "EC", crv: "P-256", x, y }, format: "jwk" }),
          dsaEncoding: "der",
        },
        Buffer.from(String(parts.v1), "base64"),
      ),
    ).toBe(true);
  });
});

/** An empty database (not the migrated template) of the run's kind, dropped on close. */
const emptyDatabase = () => openEmptyTestDb(inject("dbTemplate"));

describe("migration 0017 (issue 16 item 4)", () => {
  let database: Awaited<ReturnType<typeof emptyDatabase>> | undefined;
  afterAll(() => database?.close());

  test("voids the open OTP challenges and drops their unkeyed digests; the next start seals their target keys", async () => {
    database = await emptyDatabase();
    const { db } = database;
    const all = await loadMigrations();
    await migrate(
      db,
      all.slice(
        0,
        all.findIndex((m) => m.name.startsWith("0017_")),
      ),
    );
    const keys = [p256.utils.randomSecretKey(), p256.utils.randomSecretKey()];
    await db.transaction(async (tx) => {
      // Only these rows matter here: the foreign keys they would need are not checked while they go in.
      await tx.query("SET LOCAL session_replication_role = replica");
      for (const [i, state] of ["OPEN", "USED"].entries())
        await tx.query(
          `INSERT INTO otp_challenges (id, auth_method_id, target_private_key, target_public_key, code_sha256,
             state, expires_at, created_at) VALUES ($1, 'AuthMethod:x', $2, $3, $4, $5, now(), now())`,
          [`challenge-${i}`, hex(keys[i] ?? new Uint8Array()), "04", "ab".repeat(32), state],
        );
    });
    await migrate(db, all);
    expect(await db.query("SELECT id, state, code_key, code_hmac FROM otp_challenges ORDER BY id")).toEqual([
      { id: "challenge-0", state: "VOID", code_key: null, code_hmac: null },
      { id: "challenge-1", state: "USED", code_key: null, code_hmac: null },
    ]);
    expect(
      await db.query(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'otp_challenges' AND column_name LIKE 'code%' ORDER BY 1",
      ),
    ).toEqual([{ column_name: "code_hmac" }, { column_name: "code_key" }]);
    expect(await sealSecretsAtStart(db, testSecrets)).toBe(2);
    for (const [i, key] of keys.entries()) {
      const [row] = await db.query<{ target_private_key: string }>(
        "SELECT target_private_key FROM otp_challenges WHERE id = $1",
        [`challenge-${i}`],
      );
      expect(hex(await testSecrets.open("otp-target-key", `challenge-${i}`, row?.target_private_key))).toBe(
        hex(key),
      );
    }
  });
});
