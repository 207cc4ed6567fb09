import { validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { decryptExportBundle, generateP256KeyPair } from "@turnkey/crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newUsdAccount, startServer, type TestServer } from "../harness.js";
import {
  type Challenge,
  platformNow,
  type SessionKey,
  sessionFor,
  signedCall,
  signedHeaders,
  walletCustomer,
} from "./session-fixture.js";

type Exported = { id: string; encryptedWalletCredentials: string };

let server: TestServer;
let bundleSigningPublicKey: string;
beforeAll(async () => {
  server = await startServer();
  bundleSigningPublicKey = (await server.client.get<{ bundleSigningPublicKey: string }>("/config")).body
    .bundleSigningPublicKey;
});
afterAll(() => server.close());

const exportPath = (accountId: string) => `/internal-accounts/${accountId}/export`;

/** What a client does with `@turnkey/crypto`: verify the bundle's signature and open it with its key. */
async function openBundle(
  bundle: string,
  accountId: string,
  privateKey: string,
  signer = bundleSigningPublicKey,
) {
  return decryptExportBundle({
    exportBundle: bundle,
    embeddedKey: privateKey,
    organizationId: accountId,
    dangerouslyOverrideSignerPublicKey: signer,
    returnMnemonic: true,
  });
}

async function exportOnce(accountId: string, session: SessionKey) {
  const client = generateP256KeyPair();
  const call = await signedCall<Exported>(
    server.client,
    "POST",
    exportPath(accountId),
    { clientPublicKey: client.publicKeyUncompressed },
    session,
  );
  return { ...call, client };
}

async function advanceClock(ms: number) {
  const now = await platformNow(server, server.platform.platformId);
  const res = await server.client.post("/sandbox/clock/advance", {
    to: new Date(now.getTime() + ms).toISOString(),
  });
  expect(res.status).toBe(200);
}

describe("wallet export (conventions §5.2, §5.4)", () => {
  test("the first call answers 202 with payloadToSign, requestId and expiresAt 5 minutes on, and no type", async () => {
    const { accountId } = await walletCustomer(server.client);
    const { publicKeyUncompressed } = generateP256KeyPair();
    const before = await platformNow(server, server.platform.platformId);
    const res = await server.client.post<Challenge>(exportPath(accountId), {
      clientPublicKey: publicKeyUncompressed,
    });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(["expiresAt", "payloadToSign", "requestId"]);
    expect(res.body.requestId).toMatch(/^Request:[0-9a-f-]{36}$/);
    const lifetime = new Date(res.body.expiresAt).getTime() - before.getTime();
    expect(lifetime).toBeGreaterThanOrEqual(5 * 60_000);
    expect(lifetime).toBeLessThan(5 * 60_000 + 5_000);
    expect(JSON.parse(res.body.payloadToSign)).toMatchObject({
      action: "EXPORT_WALLET",
      accountId,
      requestId: res.body.requestId,
      method: "POST",
    });
  });

  test("the signed retry returns a bundle @turnkey/crypto opens to the wallet's 24-word English BIP-39 mnemonic", async () => {
    const { accountId } = await walletCustomer(server.client);
    const session = await sessionFor(server, accountId);
    const { result, client } = await exportOnce(accountId, session);
    expect(result.status).toBe(200);
    expect(Object.keys(result.body).sort()).toEqual(["encryptedWalletCredentials", "id"]);
    expect(result.body.id).toBe(accountId);
    const bundle = JSON.parse(result.body.encryptedWalletCredentials);
    expect(Object.keys(bundle).sort()).toEqual(["data", "dataSignature", "enclaveQuorumPublic", "version"]);
    expect(bundle).toMatchObject({ version: "v1.0.0", enclaveQuorumPublic: bundleSigningPublicKey });
    const data = JSON.parse(Buffer.from(bundle.data, "hex").toString("utf8"));
    expect(Object.keys(data)).toEqual(["encappedPublic", "ciphertext", "organizationId"]);
    expect(data.encappedPublic).toMatch(/^04[0-9a-f]{128}$/);
    expect(data.organizationId).toBe(accountId);
    const mnemonic = await openBundle(result.body.encryptedWalletCredentials, accountId, client.privateKey);
    expect(mnemonic.split(" ")).toHaveLength(24);
    expect(validateMnemonic(mnemonic, wordlist)).toBe(true);
  });

  test("every export of a wallet carries the same mnemonic, sealed to each export's own key; other wallets differ", async () => {
    const { accountId } = await walletCustomer(server.client);
    const session = await sessionFor(server, accountId);
    const first = await exportOnce(accountId, session);
    const second = await exportOnce(accountId, session);
    const a = await openBundle(
      first.result.body.encryptedWalletCredentials,
      accountId,
      first.client.privateKey,
    );
    const b = await openBundle(
      second.result.body.encryptedWalletCredentials,
      accountId,
      second.client.privateKey,
    );
    expect(b).toBe(a);
    await expect(
      openBundle(second.result.body.encryptedWalletCredentials, accountId, first.client.privateKey),
    ).rejects.toThrow();
    const other = await walletCustomer(server.client);
    const otherExport = await exportOnce(other.accountId, await sessionFor(server, other.accountId));
    expect(
      await openBundle(
        otherExport.result.body.encryptedWalletCredentials,
        other.accountId,
        otherExport.client.privateKey,
      ),
    ).not.toBe(a);
  });

  test("the bundle is signed by the platform's bundle-signing key: another signer key or organizationId is refused", async () => {
    const { accountId } = await walletCustomer(server.client);
    const { result, client } = await exportOnce(accountId, await sessionFor(server, accountId));
    const bundle = result.body.encryptedWalletCredentials;
    const stranger = generateP256KeyPair().publicKeyUncompressed;
    await expect(openBundle(bundle, accountId, client.privateKey, stranger)).rejects.toThrow();
    const { accountId: otherAccount } = await walletCustomer(server.client);
    await expect(openBundle(bundle, otherAccount, client.privateKey)).rejects.toThrow();
    // A tampered `data` no longer matches `dataSignature`. The first ciphertext byte is flipped, never set to
    // a fixed value: one bundle in 256 already starts with that value, and the "tampered" one was the original.
    const parsed = JSON.parse(bundle);
    const data = JSON.parse(Buffer.from(parsed.data, "hex").toString("utf8"));
    const flipped = (Number.parseInt(data.ciphertext.slice(0, 2), 16) ^ 0xff).toString(16).padStart(2, "0");
    const tampered = JSON.stringify({
      ...parsed,
      data: Buffer.from(
        JSON.stringify({ ...data, ciphertext: `${flipped}${data.ciphertext.slice(2)}` }),
      ).toString("hex"),
    });
    await expect(openBundle(tampered, accountId, client.privateKey)).rejects.toThrow();
  });

  test("the exported credentials are never stored: no result body, and no table holds the mnemonic or the bundle", async () => {
    const { accountId } = await walletCustomer(server.client);
    const { result, client, challenge } = await exportOnce(accountId, await sessionFor(server, accountId));
    const mnemonic = await openBundle(result.body.encryptedWalletCredentials, accountId, client.privateKey);
    const [row] = await server.db.query<{ state: string; result_status: number; result_body: string | null }>(
      "SELECT state, result_status, result_body FROM signed_requests WHERE id = $1",
      [challenge.body.requestId],
    );
    expect(row).toEqual({ state: "ANSWERED", result_status: 200, result_body: null });
    const bundleData = JSON.parse(result.body.encryptedWalletCredentials).data as string;
    const ciphertext = JSON.parse(Buffer.from(bundleData, "hex").toString("utf8")).ciphertext as string;
    const words = mnemonic.split(" ");
    const tables = await server.db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    expect(tables.length).toBeGreaterThan(10);
    for (const { table_name } of tables) {
      const rows = await server.db.query<{ j: string }>(
        `SELECT row_to_json(t)::text AS j FROM "${table_name}" t`,
      );
      const text = rows.map((r) => r.j).join("\n");
      expect(text, table_name).not.toContain(mnemonic);
      expect(text, table_name).not.toContain(words.slice(0, 3).join(" "));
      expect(text, table_name).not.toContain(ciphertext);
      expect(text, table_name).not.toContain(bundleData);
    }
  });

  test("a requestId is single use: the identical signed export re-sent after its 200 is 401 WALLET_SIGNATURE_INVALID, and so is another signature on it", async () => {
    const { accountId } = await walletCustomer(server.client);
    const session = await sessionFor(server, accountId);
    const { result, client, challenge, headers } = await exportOnce(accountId, session);
    expect(result.status).toBe(200);
    const body = { clientPublicKey: client.publicKeyUncompressed };
    const again = await server.client.post(exportPath(accountId), body, { headers });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({
      code: "WALLET_SIGNATURE_INVALID",
      reason: expect.stringMatching(/already used/),
    });
    const otherSession = await sessionFor(server, accountId);
    const reuse = await server.client.post(exportPath(accountId), body, {
      headers: await signedHeaders(otherSession, challenge.body),
    });
    expect(reuse.status).toBe(401);
    expect(reuse.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    expect(String(reuse.body.reason)).toContain("already used");
  });

  test("a retry after expiresAt is 401 WALLET_SIGNATURE_INVALID (expired), a completed export re-sent too (already used); a fresh export works", async () => {
    const { accountId } = await walletCustomer(server.client);
    const session = await sessionFor(server, accountId);
    const client = generateP256KeyPair();
    const body = { clientPublicKey: client.publicKeyUncompressed };
    const pending = await server.client.post<Challenge>(exportPath(accountId), body);
    const done = await exportOnce(accountId, session);
    await advanceClock(5 * 60_000 + 1_000);
    const late = await server.client.post(exportPath(accountId), body, {
      headers: await signedHeaders(session, pending.body),
    });
    expect(late.status).toBe(401);
    expect(late.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    expect(String(late.body.reason)).toContain("expired");
    const resent = await server.client.post(
      exportPath(accountId),
      { clientPublicKey: done.client.publicKeyUncompressed },
      { headers: done.headers },
    );
    expect(resent.status).toBe(401);
    expect(resent.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    expect(String(resent.body.reason)).toContain("already used");
    // The session (15 minutes) is still active: a fresh export goes through.
    const fresh = await exportOnce(accountId, session);
    expect(fresh.result.status).toBe(200);
  });

  test("only an active session of the account may sign: another account's session, or an ended one, is 401", async () => {
    const { accountId } = await walletCustomer(server.client);
    const other = await walletCustomer(server.client);
    const foreign = await exportOnce(accountId, await sessionFor(server, other.accountId));
    expect(foreign.result.status).toBe(401);
    expect(foreign.result.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    const ended = await sessionFor(server, accountId);
    await server.db.query("UPDATE auth_sessions SET revoked_at = created_at WHERE id = $1", [
      ended.sessionId,
    ]);
    const revoked = await exportOnce(accountId, ended);
    expect(revoked.result.status).toBe(401);
    expect(revoked.result.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
  });

  test("a retry whose body differs from the challenged one is 401 WALLET_SIGNATURE_BODY_MISMATCH", async () => {
    const { accountId } = await walletCustomer(server.client);
    const session = await sessionFor(server, accountId);
    const first = await server.client.post<Challenge>(exportPath(accountId), {
      clientPublicKey: generateP256KeyPair().publicKeyUncompressed,
    });
    const res = await server.client.post(
      exportPath(accountId),
      { clientPublicKey: generateP256KeyPair().publicKeyUncompressed },
      { headers: await signedHeaders(session, first.body) },
    );
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "WALLET_SIGNATURE_BODY_MISMATCH" });
  });

  describe.each([
    ["a compressed key", () => generateP256KeyPair().publicKey],
    ["04 + 128 hex off the curve", () => `04${"1".repeat(128)}`],
    ["not hex", () => `04${"z".repeat(128)}`],
  ])("clientPublicKey %s", (_name, key) => {
    test("is 400 INVALID_INPUT on clientPublicKey, on the first call and on the retry", async () => {
      const { accountId } = await walletCustomer(server.client);
      const session = await sessionFor(server, accountId);
      const first = await server.client.post(exportPath(accountId), { clientPublicKey: key() });
      expect(first.status).toBe(400);
      expect(first.body).toMatchObject({
        code: "INVALID_INPUT",
        details: { errors: [expect.objectContaining({ field: "clientPublicKey" })] },
      });
      const challenge = (
        await server.client.post<Challenge>(exportPath(accountId), {
          clientPublicKey: generateP256KeyPair().publicKeyUncompressed,
        })
      ).body;
      const retry = await server.client.post(
        exportPath(accountId),
        { clientPublicKey: key() },
        { headers: await signedHeaders(session, challenge) },
      );
      expect(retry.status).toBe(400);
    });
  });

  test("an unknown field is 400 INVALID_INPUT; an unknown account 404 ACCOUNT_NOT_FOUND", async () => {
    const { accountId } = await walletCustomer(server.client);
    const key = generateP256KeyPair().publicKeyUncompressed;
    const extra = await server.client.post(exportPath(accountId), { clientPublicKey: key, format: "HEX" });
    expect(extra.status).toBe(400);
    expect(extra.body).toMatchObject({ code: "INVALID_INPUT" });
    const missing = await server.client.post(
      exportPath("InternalAccount:019a0000-0000-7000-8000-000000000001"),
      { clientPublicKey: key },
    );
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
  });

  test("an account that is not an embedded wallet is 409 WALLET_NOT_PROVISIONED", async () => {
    const usd = await newUsdAccount(server.client);
    const res = await server.client.post(exportPath(usd), {
      clientPublicKey: generateP256KeyPair().publicKeyUncompressed,
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "WALLET_NOT_PROVISIONED" });
  });

  test("another platform's account is 404 ACCOUNT_NOT_FOUND", async () => {
    const { accountId } = await walletCustomer(server.client);
    const other = server.client.as(await server.newPlatform());
    const res = await other.post(exportPath(accountId), {
      clientPublicKey: generateP256KeyPair().publicKeyUncompressed,
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
  });
});

describe("wallet export through PROCESSING (interface 'Handling a still-processing response' 1-4)", () => {
  test("with a sandbox delay the retry answers PROCESSING; the identical re-send after it settles returns the bundle, once", async () => {
    const platform = await server.newPlatform();
    const client = server.client.as(platform);
    const config = await client.patch("/config", { walletAuthConfig: { sandboxProcessingDelayMs: 10_000 } });
    expect(config.status).toBe(200);
    const { accountId } = await walletCustomer(client);
    const session = await sessionFor(server, accountId, platform.platformId);
    const keyPair = generateP256KeyPair();
    const body = { clientPublicKey: keyPair.publicKeyUncompressed };
    const call = await signedCall<Exported>(client, "POST", exportPath(accountId), body, session);
    expect(call.result.status).toBe(200);
    expect(call.result.body).toEqual({ status: "PROCESSING", message: expect.any(String) });
    const early = await client.post(exportPath(accountId), body, { headers: call.headers });
    expect(early.body).toMatchObject({ status: "PROCESSING" });
    const now = await platformNow(server, platform.platformId);
    await client.post("/sandbox/clock/advance", { to: new Date(now.getTime() + 11_000).toISOString() });
    // Whether the reconciler got there first or not, the identical re-send gets the bundle, made afresh.
    const settled = await client.post<Exported>(exportPath(accountId), body, { headers: call.headers });
    expect(settled.status).toBe(200);
    expect(settled.body.id).toBe(accountId);
    const signer = (await client.get<{ bundleSigningPublicKey: string }>("/config")).body
      .bundleSigningPublicKey;
    const mnemonic = await openBundle(
      settled.body.encryptedWalletCredentials,
      accountId,
      keyPair.privateKey,
      signer,
    );
    expect(validateMnemonic(mnemonic, wordlist)).toBe(true);
    await server.jobs.runDue();
    const [row] = await server.db.query<{ state: string; result_body: string | null }>(
      "SELECT state, result_body FROM signed_requests WHERE id = $1",
      [call.challenge.body.requestId],
    );
    expect(row).toEqual({ state: "ANSWERED", result_body: null });
    const afterAnswer = await client.post(exportPath(accountId), body, { headers: call.headers });
    expect([afterAnswer.status, afterAnswer.body.code]).toEqual([401, "WALLET_SIGNATURE_INVALID"]);
  });

  test("settled by the reconciler first, nothing of the export is stored; the identical re-send gets a bundle made afresh, once", async () => {
    const platform = await server.newPlatform();
    const client = server.client.as(platform);
    await client.patch("/config", { walletAuthConfig: { sandboxProcessingDelayMs: 10_000 } });
    const { accountId } = await walletCustomer(client);
    const session = await sessionFor(server, accountId, platform.platformId);
    const keyPair = generateP256KeyPair();
    const body = { clientPublicKey: keyPair.publicKeyUncompressed };
    const call = await signedCall<Exported>(client, "POST", exportPath(accountId), body, session);
    expect(call.result.body).toMatchObject({ status: "PROCESSING" });
    const now = await platformNow(server, platform.platformId);
    await client.post("/sandbox/clock/advance", { to: new Date(now.getTime() + 11_000).toISOString() });
    await server.jobs.runDue();
    const state = async () =>
      (
        await server.db.query<{ state: string; result_body: string | null }>(
          "SELECT state, result_body FROM signed_requests WHERE id = $1",
          [call.challenge.body.requestId],
        )
      )[0];
    expect(await state()).toEqual({ state: "COMPLETED", result_body: null });
    const settled = await client.post<Exported>(exportPath(accountId), body, { headers: call.headers });
    expect(settled.status).toBe(200);
    const signer = (await client.get<{ bundleSigningPublicKey: string }>("/config")).body
      .bundleSigningPublicKey;
    const mnemonic = await openBundle(
      settled.body.encryptedWalletCredentials,
      accountId,
      keyPair.privateKey,
      signer,
    );
    expect(validateMnemonic(mnemonic, wordlist)).toBe(true);
    expect(await state()).toEqual({ state: "ANSWERED", result_body: null });
    const again = await client.post(exportPath(accountId), body, { headers: call.headers });
    expect([again.status, again.body.code]).toEqual([401, "WALLET_SIGNATURE_INVALID"]);
  });
});
