import { createHash, createHmac } from "node:crypto";
import { generateP256KeyPair } from "@turnkey/crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { OtpMessage } from "../../src/core/otp-sender.js";
import { SealedValueError } from "../../src/core/secrets/secret-box.js";
import { startServer, type TestServer } from "../harness.js";
import { newWalletCustomer, otpLogin, otpVerifyChallenge, signedRequest } from "../wallet-auth/client.js";
import {
  eventually,
  type Jwks,
  platformWithReceiver,
  produce,
  verifySignature,
} from "../webhooks/helpers.js";
import type { Receiver } from "../webhooks/receiver.js";
import { exportMnemonic, findNeedles, loggedInWallet, plaintextSecrets, tablesAsText } from "./helpers.js";

// Issue 16 item 4, both databases: before, the wallet seeds, the OTP target keys, the bundle-signing keys
// and the webhook private keys were columns anyone reading the database (a dump, a backup, a replica, a
// SQL injection) could use, and each OTP code was one SHA-256 of 10^6 candidates away.

let server: TestServer;
const receivers: Receiver[] = [];
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await server?.close();
});

const secretsOfServer = () => {
  if (!server.deps.secrets) throw new Error("the test app has no secrets box");
  return server.deps.secrets;
};

describe("secrets are sealed at rest (issue 16 item 4)", () => {
  test("after an OTP login, an export and a webhook delivery, no table holds the seed, the mnemonic, the OTP keys, the bundle-signing key or a webhook private key in clear", async () => {
    const { platform, client, receiver } = await platformWithReceiver(server);
    receivers.push(receiver);
    const wallet = await loggedInWallet(client);
    const mnemonic = await exportMnemonic(client, wallet.accountId, wallet.sessionKey);
    await produce(server, platform.platformId);
    await eventually(() => expect(receiver.received.length).toBe(1));
    const delivered = receiver.received[0];
    if (!delivered) throw new Error("no delivery");
    const jwks = (await client.get<Jwks>("/webhooks/signing-keys")).body;
    verifySignature(delivered.body, String(delivered.headers["x-service-signature"]), jwks, new Date());

    const needles = await plaintextSecrets(server.db, secretsOfServer(), {
      accountId: wallet.accountId,
      emailOtpId: wallet.emailOtp.id,
      platformId: platform.platformId,
      mnemonic,
    });
    const tables = await tablesAsText(server.db);
    // The scan sees what is stored: the seed's row is there, sealed.
    const [seed] = await server.db.query<{ entropy: string }>(
      "SELECT entropy FROM embedded_wallet_seeds WHERE account_id = $1",
      [wallet.accountId],
    );
    expect(seed?.entropy).toMatch(/^sealed:v1:local-[0-9a-f]{16}:[A-Za-z0-9_-]+$/);
    expect(findNeedles(new Map([["sealed seed", [Buffer.from(seed?.entropy ?? "")]]]), tables)).toEqual([
      "sealed seed in embedded_wallet_seeds",
    ]);
    expect(needles.size).toBeGreaterThanOrEqual(6);
    expect(findNeedles(needles, tables)).toEqual([]);
  });

  test("a sealed value copied to another row, or read as another purpose, does not open: the export of the row it was copied to fails and yields no bundle", async () => {
    const client = server.client.as(await server.newPlatform());
    const first = await loggedInWallet(client);
    const second = await loggedInWallet(client);
    await exportMnemonic(client, first.accountId, first.sessionKey);
    const mnemonic = await exportMnemonic(client, second.accountId, second.sessionKey);
    const seedOf = async (accountId: string) =>
      (
        await server.db.query<{ entropy: string }>(
          "SELECT entropy FROM embedded_wallet_seeds WHERE account_id = $1",
          [accountId],
        )
      )[0]?.entropy ?? "";
    const [firstSeed, secondSeed] = [await seedOf(first.accountId), await seedOf(second.accountId)];
    const box = secretsOfServer();
    await expect(box.open("wallet-seed", second.accountId, firstSeed)).rejects.toThrow(SealedValueError);
    await expect(box.open("bundle-signing-key", first.accountId, firstSeed)).rejects.toThrow(
      SealedValueError,
    );
    expect(await box.open("wallet-seed", first.accountId, firstSeed)).toHaveLength(32);

    // The attack: give the second wallet the first wallet's seed, so its export would reveal that seed.
    await server.db.query("UPDATE embedded_wallet_seeds SET entropy = $2 WHERE account_id = $1", [
      second.accountId,
      firstSeed,
    ]);
    try {
      const retry = await signedRequest<{ encryptedWalletCredentials?: string; code?: string }>(
        client,
        "POST",
        `/internal-accounts/${second.accountId}/export`,
        { clientPublicKey: generateP256KeyPair().publicKeyUncompressed },
        second.sessionKey,
      );
      expect(retry.status).toBe(500);
      expect(retry.body.code).toBe("INTERNAL_ERROR");
      expect(retry.body.encryptedWalletCredentials).toBeUndefined();
    } finally {
      await server.db.query("UPDATE embedded_wallet_seeds SET entropy = $2 WHERE account_id = $1", [
        second.accountId,
        secondSeed,
      ]);
    }
    expect(await exportMnemonic(client, second.accountId, second.sessionKey)).toBe(mnemonic);
  });
});

describe("the OTP code is checked by an HMAC under a sealed key of its challenge (issue 16 item 4)", () => {
  let production: TestServer;
  const sent: OtpMessage[] = [];
  beforeAll(async () => {
    production = await startServer({ otpSender: { send: async (message) => void sent.push(message) } });
  });
  afterAll(() => production?.close());

  test("the stored value is no digest of the code, so trying the 10^6 codes against it finds nothing; a wrong code is 401 and the right one 202", async () => {
    const client = production.client.as(await production.newPlatform("PRODUCTION"));
    const customer = await newWalletCustomer(client);
    const challenged = await client.post<{ otpEncryptionTargetBundle: string }>(
      `/auth/credentials/${customer.emailOtp.id}/challenge`,
    );
    expect(challenged.status, challenged.text).toBe(200);
    const code = sent.find((m) => m.authMethodId === customer.emailOtp.id)?.code ?? "";
    expect(code).toMatch(/^\d{6}$/);
    const [row] = await production.db.query<{ id: string; code_key: string; code_hmac: string }>(
      "SELECT id, code_key, code_hmac FROM otp_challenges WHERE auth_method_id = $1 AND state = 'OPEN'",
      [customer.emailOtp.id],
    );
    if (!row) throw new Error("no open challenge");
    expect(row.code_key).toMatch(/^sealed:v1:/);

    // The attack that worked before: hash every 6-digit code the way the digest was made and compare.
    // It reaches the right code at the latest after 10^6 tries (well under a second before); that code,
    // hashed either way, is not what is stored, so the search finds nothing.
    const digests = [createHash("sha256").update(`${row.id}:${code}`), createHash("sha256").update(code)];
    expect(digests.map((d) => d.digest("hex"))).not.toContain(row.code_hmac);
    // With the master key the value is the code's HMAC under the challenge's own key.
    const secrets = production.deps.secrets;
    if (!secrets) throw new Error("the test app has no secrets box");
    const key = await secrets.open("otp-code-key", row.id, row.code_key);
    expect(createHmac("sha256", key).update(code).digest("hex")).toBe(row.code_hmac);

    const bundle = challenged.body.otpEncryptionTargetBundle;
    const wrong = code === "123456" ? "654321" : "123456";
    const refused = await otpVerifyChallenge(client, customer.emailOtp.id, { code: wrong, bundle });
    expect(refused.first.status, refused.first.text).toBe(401);
    const { session } = await otpLogin(client, customer.emailOtp.id, { code, bundle });
    expect(session).toMatchObject({ id: expect.any(String) });
  });
});
