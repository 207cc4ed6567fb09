import { Writable } from "node:stream";
import { p256 } from "@noble/curves/nist.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ControlledClock } from "../../src/core/clock.js";
import { canonicalJson, sha256Hex } from "../../src/core/hash.js";
import { hpkeSeal } from "../../src/core/hpke.js";
import type { OtpMessage } from "../../src/core/otp-sender.js";
import { startServer, type TestClient, type TestServer, testLogger } from "../harness.js";
import {
  type AuthMethodBody,
  type Challenge,
  encryptOtp,
  newKeyPair,
  newWalletCustomer,
  otpLogin,
  otpVerifyChallenge,
  readTargetBundle,
  type SessionBody,
  signedHeaders,
  signedRequest,
  stamp,
} from "./client.js";

let server: TestServer;
let client: TestClient;
let clocked: TestServer;
let clock: ControlledClock;
const logLines: string[] = [];
beforeAll(async () => {
  clock = new ControlledClock();
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  [server, clocked] = await Promise.all([startServer(), startServer({ clock, logger: testLogger(sink) })]);
  client = server.client;
});
afterAll(() => Promise.all([server.close(), clocked.close()]));

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const challenge = (c: TestClient, id: string) => c.post<AuthMethodBody>(`/auth/credentials/${id}/challenge`);
const verifyPath = (id: string) => `/auth/credentials/${id}/verify`;
const otpBody = async (bundle: string, code: string, key = newKeyPair()) => ({
  type: "EMAIL_OTP",
  encryptedOtpBundle: await encryptOtp(bundle, code, key.publicKey),
});
const bundleOf = async (c: TestClient, id: string) =>
  String((await challenge(c, id)).body.otpEncryptionTargetBundle);
const sessions = async (c: TestClient, accountId: string) =>
  (await c.get<{ data: SessionBody[] }>(`/auth/sessions?accountId=${accountId}`)).body.data;

describe("flow 1: EMAIL_OTP session (conventions §5.4, §5.5)", () => {
  test("a new customer's embedded wallet holds one EMAIL_OTP credential named after the customer e-mail (rule 3, flow 10)", async () => {
    const wallet = await newWalletCustomer(client);
    const list = await client.get<{ data: AuthMethodBody[] }>(
      `/auth/credentials?accountId=${wallet.accountId}`,
    );
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      {
        id: expect.stringMatching(/^AuthMethod:[0-9a-f-]{36}$/),
        accountId: wallet.accountId,
        type: "EMAIL_OTP",
        nickname: wallet.email,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
  });

  test("challenge: 200 AuthMethod whose otpEncryptionTargetBundle is signed by bundleSigningPublicKey and names the account, the credential and a fresh uncompressed target key", async () => {
    const wallet = await newWalletCustomer(client);
    const first = await challenge(client, wallet.emailOtp.id);
    expect(first.status, first.text).toBe(200);
    const { otpEncryptionTargetBundle, ...method } = first.body;
    expect(method).toEqual(wallet.emailOtp);
    const bundle = readTargetBundle(String(otpEncryptionTargetBundle));
    expect(bundle.version).toBe("v1.0.0");
    expect(Buffer.from(bundle.data, "hex").toString("utf8")).toBe(
      JSON.stringify({
        organizationId: wallet.accountId,
        targetPublic: bundle.signedData.targetPublic,
        userId: wallet.emailOtp.id,
      }),
    );
    expect(bundle.signedData.targetPublic).toMatch(/^04[0-9a-f]{128}$/);
    const config = await client.get<{ bundleSigningPublicKey: string }>("/config");
    expect(bundle.enclaveQuorumPublic).toBe(config.body.bundleSigningPublicKey);
    const second = readTargetBundle(await bundleOf(client, wallet.emailOtp.id));
    expect(second.signedData.targetPublic).not.toBe(bundle.signedData.targetPublic);
  });

  test("verify: 202 {type, payloadToSign, requestId, expiresAt +5 min}; payloadToSign binds VERIFY_OTP, account, method, path, canonical body and the client key", async () => {
    const wallet = await newWalletCustomer(client);
    const before = Date.now();
    const { key, body, path, first } = await otpVerifyChallenge(client, wallet.emailOtp.id);
    expect(first.status, first.text).toBe(202);
    expect(Object.keys(first.body).sort()).toEqual(["expiresAt", "payloadToSign", "requestId", "type"]);
    expect(first.body.type).toBe("EMAIL_OTP");
    expect(first.body.requestId).toMatch(/^Request:[0-9a-f-]{36}$/);
    const expiresAt = Date.parse(first.body.expiresAt);
    expect(expiresAt - before).toBeGreaterThanOrEqual(5 * 60_000 - 50);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(JSON.parse(first.body.payloadToSign)).toEqual({
      action: "VERIFY_OTP",
      accountId: wallet.accountId,
      requestId: first.body.requestId,
      method: "POST",
      path: `/2025-10-13${path}`,
      bodySha256: sha256Hex(canonicalJson(body)),
      issuedAtMs: expect.any(Number),
      publicKey: key.publicKey,
    });
  });

  test("the retry stamped by the client key: 200 AuthSession with no encryptedSessionSigningKey, 15 minutes long, listed by GET /auth/sessions", async () => {
    const wallet = await newWalletCustomer(client);
    const { session } = await otpLogin(client, wallet.emailOtp.id);
    expect(Object.keys(session).sort()).toEqual([
      "accountId",
      "createdAt",
      "expiresAt",
      "id",
      "nickname",
      "type",
      "updatedAt",
    ]);
    expect(session).toMatchObject({ accountId: wallet.accountId, type: "EMAIL_OTP", nickname: wallet.email });
    expect(session.id).toMatch(/^Session:[0-9a-f-]{36}$/);
    expect(Date.parse(session.expiresAt) - Date.parse(session.createdAt)).toBe(15 * 60_000);
    expect(await sessions(client, wallet.accountId)).toEqual([session]);
  });

  test("a requestId is single use: the identical signed retry re-sent after its 200 AuthSession is 401 WALLET_SIGNATURE_INVALID, and no second session", async () => {
    const wallet = await newWalletCustomer(client);
    const { key, body, path, first } = await otpVerifyChallenge(client, wallet.emailOtp.id);
    const headers = signedHeaders(stamp(first.body.payloadToSign, key), first.body.requestId);
    const one = await client.post<SessionBody>(path, body, { headers });
    expect(one.status, one.text).toBe(200);
    const two = await client.post<{ code: string; reason: string }>(path, body, { headers });
    expect(two.status).toBe(401);
    expect(two.body).toEqual({
      code: "WALLET_SIGNATURE_INVALID",
      reason: expect.stringMatching(/already used/),
    });
    expect(await sessions(client, wallet.accountId)).toEqual([one.body]);
  });

  test("a client key sent uncompressed (04…) is bound in its compressed form, which then signs", async () => {
    const wallet = await newWalletCustomer(client);
    const key = newKeyPair();
    const bundle = await bundleOf(client, wallet.emailOtp.id);
    const body = {
      type: "EMAIL_OTP",
      encryptedOtpBundle: await encryptOtp(bundle, "000000", key.publicKeyUncompressed),
    };
    const first = await client.post<Challenge>(verifyPath(wallet.emailOtp.id), body);
    expect(JSON.parse(first.body.payloadToSign).publicKey).toBe(key.publicKey);
    const done = await client.post(verifyPath(wallet.emailOtp.id), body, {
      headers: signedHeaders(stamp(first.body.payloadToSign, key), first.body.requestId),
    });
    expect(done.status, done.text).toBe(200);
  });
});

describe("flows 6, 7, 8 and 10 for EMAIL_OTP", () => {
  test("flow 7: a new challenge returns a new bundle and the AuthMethod otherwise unchanged; the older bundle no longer decrypts (400)", async () => {
    const wallet = await newWalletCustomer(client);
    const first = await challenge(client, wallet.emailOtp.id);
    const second = await challenge(client, wallet.emailOtp.id);
    expect({ ...second.body, otpEncryptionTargetBundle: undefined }).toEqual({
      ...first.body,
      otpEncryptionTargetBundle: undefined,
    });
    expect(second.body.otpEncryptionTargetBundle).not.toBe(first.body.otpEncryptionTargetBundle);
    const stale = await client.post(
      verifyPath(wallet.emailOtp.id),
      await otpBody(String(first.body.otpEncryptionTargetBundle), "000000"),
    );
    expect(stale.status).toBe(400);
    expect(stale.body).toMatchObject({
      code: "INVALID_INPUT",
      details: { errors: [{ field: "encryptedOtpBundle" }] },
    });
    await otpLogin(client, wallet.emailOtp.id, { bundle: String(second.body.otpEncryptionTargetBundle) });
  });

  test("flow 7 (production): each challenge sends a fresh random 6-digit code; the older code is refused and the newest accepted", async () => {
    const sent: OtpMessage[] = [];
    // The shared app's deps are frozen; this file's own app (`clocked`) takes the sender.
    clocked.deps.otpSender = { send: async (message) => void sent.push(message) };
    const production = clocked.client.as(await clocked.newPlatform("PRODUCTION"));
    const wallet = await newWalletCustomer(production);
    const first = await challenge(production, wallet.emailOtp.id);
    const second = await challenge(production, wallet.emailOtp.id);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({ channel: "EMAIL", to: wallet.email, authMethodId: wallet.emailOtp.id });
    for (const message of sent) expect(message.code).toMatch(/^\d{6}$/);
    const [oldCode, newCode] = sent.map((m) => m.code);
    const bundle = String(second.body.otpEncryptionTargetBundle);
    if (oldCode !== newCode) {
      const refused = await production.post(
        verifyPath(wallet.emailOtp.id),
        await otpBody(bundle, String(oldCode)),
      );
      expect(refused.status).toBe(401);
    }
    expect(first.body.otpEncryptionTargetBundle).not.toBe(bundle);
    await otpLogin(production, wallet.emailOtp.id, { bundle, code: String(newCode) });
  });

  test("flow 6: an expired session (15 minutes) is no longer listed and cannot sign; challenge and verify log in again", async () => {
    const c = clocked.client;
    const wallet = await newWalletCustomer(c, { phoneNumber: "+14155550101" });
    const { session, key } = await otpLogin(c, wallet.emailOtp.id);
    clock.advance(15 * 60_000 + 1);
    expect(await sessions(c, wallet.accountId)).toEqual([]);
    const revoke = await c.delete<Challenge>(`/auth/sessions/${session.id}`);
    expect(revoke.status).toBe(404);
    expect(revoke.body).toMatchObject({ code: "SESSION_NOT_FOUND" });
    const add = await c.post<Challenge>("/auth/credentials", {
      type: "SMS_OTP",
      accountId: wallet.accountId,
    });
    const refused = await c.post(
      "/auth/credentials",
      { type: "SMS_OTP", accountId: wallet.accountId },
      {
        headers: signedHeaders(stamp(add.body.payloadToSign, key), add.body.requestId),
      },
    );
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    const again = await otpLogin(c, wallet.emailOtp.id);
    expect(await sessions(c, wallet.accountId)).toEqual([again.session]);
  });

  test("flow 8: an EMAIL_OTP credential added back carries a bundle the client verifies with directly, without /challenge", async () => {
    const wallet = await newWalletCustomer(client, { phoneNumber: "+14155550100" });
    const email = await otpLogin(client, wallet.emailOtp.id);
    const sms = await signedRequest<AuthMethodBody>(
      client,
      "POST",
      "/auth/credentials",
      { type: "SMS_OTP", accountId: wallet.accountId },
      email.key,
    );
    expect(sms.status, sms.text).toBe(201);
    const smsKey = newKeyPair();
    const smsBody = {
      type: "SMS_OTP",
      encryptedOtpBundle: await encryptOtp(
        String(sms.body.otpEncryptionTargetBundle),
        "000000",
        smsKey.publicKey,
      ),
    };
    const smsVerify = await client.post<Challenge>(verifyPath(sms.body.id), smsBody);
    const smsSession = await client.post(verifyPath(sms.body.id), smsBody, {
      headers: signedHeaders(stamp(smsVerify.body.payloadToSign, smsKey), smsVerify.body.requestId),
    });
    expect(smsSession.status, smsSession.text).toBe(200);
    const revoked = await signedRequest(
      client,
      "DELETE",
      `/auth/credentials/${wallet.emailOtp.id}`,
      undefined,
      smsKey,
    );
    expect(revoked.status, revoked.text).toBe(204);
    const readded = await signedRequest<AuthMethodBody>(
      client,
      "POST",
      "/auth/credentials",
      { type: "EMAIL_OTP", accountId: wallet.accountId },
      smsKey,
    );
    expect(readded.status, readded.text).toBe(201);
    expect(readded.body).toMatchObject({ type: "EMAIL_OTP", nickname: wallet.email });
    const login = await otpLogin(client, readded.body.id, {
      bundle: String(readded.body.otpEncryptionTargetBundle),
    });
    expect(login.session.type).toBe("EMAIL_OTP");
  });

  test("flow 10: adding EMAIL_OTP while the account has one → 400 EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS on the first call", async () => {
    const wallet = await newWalletCustomer(client);
    const res = await client.post("/auth/credentials", { type: "EMAIL_OTP", accountId: wallet.accountId });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS" });
  });
});

describe("OTP verify errors (conventions §5.8)", () => {
  const sealTo = async (bundle: string, plaintext: string) => {
    const target = readTargetBundle(bundle).signedData.targetPublic;
    const { enc, ciphertext } = await hpkeSeal(
      Buffer.from(target, "hex"),
      new TextEncoder().encode(plaintext),
      "turnkey_hpke",
    );
    return JSON.stringify({ encappedPublic: hex(enc), ciphertext: hex(ciphertext) });
  };
  const offCurve = `02${"ff".repeat(32)}`;
  test.each([
    ["not JSON text", async () => "not json"],
    ["without encappedPublic", async () => JSON.stringify({ ciphertext: "00ff" })],
    [
      "with a ciphertext that is not hex",
      async () => JSON.stringify({ encappedPublic: `04${"11".repeat(64)}`, ciphertext: "zz" }),
    ],
    [
      "sealed to another key (not decryptable)",
      async () => {
        const { enc, ciphertext } = await hpkeSeal(
          p256.getPublicKey(p256.utils.randomSecretKey()),
          new Uint8Array(8),
          "turnkey_hpke",
        );
        return JSON.stringify({ encappedPublic: hex(enc), ciphertext: hex(ciphertext) });
      },
    ],
    [
      "tampered ciphertext",
      async (bundle: string) => {
        const sealed = JSON.parse(await encryptOtp(bundle, "000000", newKeyPair().publicKey));
        // The last byte flipped, never set to a fixed value that one ciphertext in 256 already ends with.
        const last = (Number.parseInt(sealed.ciphertext.slice(-2), 16) ^ 0xff).toString(16).padStart(2, "0");
        return JSON.stringify({ ...sealed, ciphertext: `${sealed.ciphertext.slice(0, -2)}${last}` });
      },
    ],
    ["whose plaintext is not JSON", (bundle: string) => sealTo(bundle, "000000")],
    [
      "whose plaintext has no public_key",
      (bundle: string) => sealTo(bundle, JSON.stringify({ otp_code: "000000" })),
    ],
    [
      "whose public_key is not on P-256",
      (bundle: string) => sealTo(bundle, JSON.stringify({ otp_code: "000000", public_key: offCurve })),
    ],
  ])("an encryptedOtpBundle %s → 400 INVALID_INPUT on encryptedOtpBundle", async (_name, make) => {
    const wallet = await newWalletCustomer(client);
    const bundle = await bundleOf(client, wallet.emailOtp.id);
    const res = await client.post(verifyPath(wallet.emailOtp.id), {
      type: "EMAIL_OTP",
      encryptedOtpBundle: await make(bundle),
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({
      code: "INVALID_INPUT",
      details: { errors: [{ field: "encryptedOtpBundle" }] },
    });
    await otpLogin(client, wallet.emailOtp.id, { bundle });
  });

  test("a wrong code → 401 UNAUTHORIZED 'Invalid OTP code', committed: the fifth wrong code voids it, so the right code then fails too", async () => {
    const wallet = await newWalletCustomer(client);
    const bundle = await bundleOf(client, wallet.emailOtp.id);
    for (let i = 0; i < 5; i++) {
      const wrong = await client.post(verifyPath(wallet.emailOtp.id), await otpBody(bundle, "123456"));
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({
        code: "UNAUTHORIZED",
        reason: expect.stringMatching(/^Invalid OTP code/),
      });
    }
    const right = await client.post(verifyPath(wallet.emailOtp.id), await otpBody(bundle, "000000"));
    expect(right.status).toBe(401);
    expect(right.body).toMatchObject({
      code: "UNAUTHORIZED",
      reason: expect.stringMatching(/^Invalid OTP code/),
    });
    await otpLogin(client, wallet.emailOtp.id);
  });

  test("four wrong codes leave the code usable", async () => {
    const wallet = await newWalletCustomer(client);
    const bundle = await bundleOf(client, wallet.emailOtp.id);
    for (let i = 0; i < 4; i++)
      expect(
        (await client.post(verifyPath(wallet.emailOtp.id), await otpBody(bundle, "999999"))).status,
      ).toBe(401);
    await otpLogin(client, wallet.emailOtp.id, { bundle });
  });

  test("a code is single use: verifying it again after its 202 → 401 Invalid OTP code", async () => {
    const wallet = await newWalletCustomer(client);
    const bundle = await bundleOf(client, wallet.emailOtp.id);
    const body = await otpBody(bundle, "000000");
    expect((await client.post(verifyPath(wallet.emailOtp.id), body)).status).toBe(202);
    const reused = await client.post(verifyPath(wallet.emailOtp.id), body);
    expect(reused.status).toBe(401);
    expect(reused.body).toMatchObject({
      code: "UNAUTHORIZED",
      reason: expect.stringMatching(/^Invalid OTP code/),
    });
  });

  test("no code outstanding (never challenged) → 401 Invalid OTP code", async () => {
    const wallet = await newWalletCustomer(client);
    const res = await client.post(verifyPath(wallet.emailOtp.id), {
      type: "EMAIL_OTP",
      encryptedOtpBundle: JSON.stringify({ encappedPublic: `04${"11".repeat(64)}`, ciphertext: "00" }),
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      code: "UNAUTHORIZED",
      reason: expect.stringMatching(/^Invalid OTP code/),
    });
  });

  test("a code older than 10 minutes → 401 Invalid OTP code; a new challenge works", async () => {
    const c = clocked.client;
    const wallet = await newWalletCustomer(c);
    const bundle = await bundleOf(c, wallet.emailOtp.id);
    clock.advance(10 * 60_000 + 1);
    const late = await c.post(verifyPath(wallet.emailOtp.id), await otpBody(bundle, "000000"));
    expect(late.status).toBe(401);
    expect(late.body).toMatchObject({
      code: "UNAUTHORIZED",
      reason: expect.stringMatching(/^Invalid OTP code.*expired/),
    });
    await otpLogin(c, wallet.emailOtp.id);
  });

  test("the body's type must be the credential's: SMS_OTP for an EMAIL_OTP credential → 400 on type", async () => {
    const wallet = await newWalletCustomer(client);
    const bundle = await bundleOf(client, wallet.emailOtp.id);
    const res = await client.post(verifyPath(wallet.emailOtp.id), {
      ...(await otpBody(bundle, "000000")),
      type: "SMS_OTP",
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "type" }] } });
  });

  test("the credential changed after its code was issued → 409 EMAIL_OTP_CREDENTIAL_SET_CHANGED", async () => {
    const wallet = await newWalletCustomer(client);
    const bundle = await bundleOf(client, wallet.emailOtp.id);
    await server.db.query(
      "UPDATE auth_methods SET nickname = 'changed@example.com', updated_at = now() + interval '1 second' WHERE id = $1",
      [wallet.emailOtp.id],
    );
    const res = await client.post(verifyPath(wallet.emailOtp.id), await otpBody(bundle, "000000"));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "EMAIL_OTP_CREDENTIAL_SET_CHANGED" });
  });

  test.each([
    ["unknown", "AuthMethod:0190a3f5-0000-7000-8000-000000000123"],
    ["malformed", "AuthMethod:nope"],
    ["of another type", "Session:0190a3f5-0000-7000-8000-000000000123"],
  ])("an %s credential id → 404 AUTH_METHOD_NOT_FOUND on challenge and verify", async (_name, id) => {
    const challenged = await client.post(`/auth/credentials/${id}/challenge`);
    expect(challenged.status).toBe(404);
    expect(challenged.body).toMatchObject({ code: "AUTH_METHOD_NOT_FOUND" });
    const verified = await client.post(verifyPath(id), { type: "EMAIL_OTP", encryptedOtpBundle: "{}" });
    expect(verified.status).toBe(404);
    expect(verified.body).toMatchObject({ code: "AUTH_METHOD_NOT_FOUND" });
  });

  test("another platform's credential → 404 AUTH_METHOD_NOT_FOUND", async () => {
    const wallet = await newWalletCustomer(client);
    const other = client.as(await server.newPlatform());
    const res = await other.post(`/auth/credentials/${wallet.emailOtp.id}/challenge`);
    expect(res.status).toBe(404);
  });

  test("429 + Retry-After after 10 failed verifies in 15 minutes; verifies are accepted again once the window passes", async () => {
    const c = clocked.client;
    const wallet = await newWalletCustomer(c);
    for (let round = 0; round < 2; round++) {
      const bundle = await bundleOf(c, wallet.emailOtp.id);
      for (let i = 0; i < 5; i++)
        expect((await c.post(verifyPath(wallet.emailOtp.id), await otpBody(bundle, "111111"))).status).toBe(
          401,
        );
    }
    const bundle = await bundleOf(c, wallet.emailOtp.id);
    const limited = await c.post(verifyPath(wallet.emailOtp.id), await otpBody(bundle, "000000"));
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: "RATE_LIMITED" });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    clock.advance(retryAfter * 1000);
    await otpLogin(c, wallet.emailOtp.id);
  });

  test("423 ACCOUNT_LOCKED after 20 failed verifies in 24 hours, on verify and challenge; it unlocks 24 hours after the first of them", async () => {
    const c = clocked.client;
    const wallet = await newWalletCustomer(c);
    for (let window = 0; window < 2; window++) {
      for (let round = 0; round < 2; round++) {
        const bundle = await bundleOf(c, wallet.emailOtp.id);
        for (let i = 0; i < 5; i++)
          expect((await c.post(verifyPath(wallet.emailOtp.id), await otpBody(bundle, "222222"))).status).toBe(
            401,
          );
      }
      clock.advance(15 * 60_000);
    }
    const challenged = await challenge(c, wallet.emailOtp.id);
    expect(challenged.status).toBe(423);
    expect(challenged.body).toMatchObject({ code: "ACCOUNT_LOCKED" });
    const verified = await c.post(verifyPath(wallet.emailOtp.id), {
      type: "EMAIL_OTP",
      encryptedOtpBundle: "{}",
    });
    expect(verified.status).toBe(423);
    clock.advance(24 * 60 * 60_000 - 30 * 60_000);
    await otpLogin(c, wallet.emailOtp.id);
  });

  test("challenge: 429 RATE_LIMITED + Retry-After beyond 5 issues per credential in 15 minutes", async () => {
    const c = clocked.client;
    const wallet = await newWalletCustomer(c);
    for (let i = 0; i < 5; i++) expect((await challenge(c, wallet.emailOtp.id)).status).toBe(200);
    const limited = await challenge(c, wallet.emailOtp.id);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: "RATE_LIMITED" });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    clock.advance(retryAfter * 1000);
    expect((await challenge(c, wallet.emailOtp.id)).status).toBe(200);
  });

  test("sandbox: nothing is sent and neither the code nor the target private key is ever logged", async () => {
    const c = clocked.client;
    const sent: OtpMessage[] = [];
    clocked.deps.otpSender = { send: async (message) => void sent.push(message) };
    const wallet = await newWalletCustomer(c);
    await otpLogin(c, wallet.emailOtp.id);
    expect(sent).toEqual([]);
    const keys = await clocked.db.query<{ target_private_key: string }>(
      "SELECT target_private_key FROM otp_challenges WHERE auth_method_id = $1",
      [wallet.emailOtp.id],
    );
    const logs = logLines.join("");
    expect(logs).toContain(wallet.emailOtp.id);
    expect(logs).not.toMatch(/"000000"|otp_code|otpDelivery/);
    for (const { target_private_key } of keys) expect(logs).not.toContain(target_private_key);
  });
});

describe("signed-retry checks in order (conventions §5.3), on the OTP verify retry", () => {
  const prepared = async (c: TestClient = client) => {
    const wallet = await newWalletCustomer(c);
    return { wallet, ...(await otpVerifyChallenge(c, wallet.emailOtp.id)) };
  };
  const expectError = (res: { status: number; body: unknown }, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code });
  };

  test("a signature without Request-Id → 401 REQUEST_ID_MISSING (even a malformed one)", async () => {
    const { key, body, path, first } = await prepared();
    const headers = { "service-wallet-signature": stamp(first.body.payloadToSign, key) };
    expectError(await client.post(path, body, { headers }), 401, "REQUEST_ID_MISSING");
    const malformed = { "service-wallet-signature": "!!" };
    expectError(await client.post(path, body, { headers: malformed }), 401, "REQUEST_ID_MISSING");
  });

  test("Request-Id without a signature → 401 WALLET_SIGNATURE_MISSING", async () => {
    const { body, path, first } = await prepared();
    expectError(
      await client.post(path, body, { headers: { "request-id": first.body.requestId } }),
      401,
      "WALLET_SIGNATURE_MISSING",
    );
  });

  const key = newKeyPair();
  const sig = hex(p256.sign(new TextEncoder().encode("x"), key.privateKey, { format: "der" }));
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const scheme = "SIGNATURE_SCHEME_TK_API_P256";
  test.each([
    ["not base64url", "%%%not-base64%%%"],
    ["not JSON", Buffer.from("{nope").toString("base64url")],
    ["a JSON array", b64([key.publicKey, scheme, sig])],
    ["missing signature", b64({ publicKey: key.publicKey, scheme })],
    ["with an extra field", b64({ publicKey: key.publicKey, scheme, signature: sig, extra: 1 })],
    [
      "with another scheme",
      b64({ publicKey: key.publicKey, scheme: "SIGNATURE_SCHEME_TK_API_ED25519", signature: sig }),
    ],
    ["with an uncompressed publicKey", b64({ publicKey: key.publicKeyUncompressed, scheme, signature: sig })],
    ["with a signature that is not hex", b64({ publicKey: key.publicKey, scheme, signature: "xyz" })],
  ])("a stamp %s → 401 WALLET_SIGNATURE_MALFORMED, checked before the requestId", async (_name, header) => {
    const { body, path } = await prepared();
    const unknown = "Request:0190a3f5-0000-7000-8000-000000000123";
    expectError(
      await client.post(path, body, { headers: signedHeaders(header, unknown) }),
      401,
      "WALLET_SIGNATURE_MALFORMED",
    );
  });

  test("a requestId never issued, malformed, or issued to another platform → 404 REQUEST_NOT_FOUND", async () => {
    const { wallet, key: tek, body, path, first } = await prepared();
    const signature = stamp(first.body.payloadToSign, tek);
    for (const requestId of ["Request:0190a3f5-0000-7000-8000-000000000123", "Request:nope", "Session:x"])
      expectError(
        await client.post(path, body, { headers: signedHeaders(signature, requestId) }),
        404,
        "REQUEST_NOT_FOUND",
      );
    const other = client.as(await server.newPlatform());
    const foreign = await newWalletCustomer(other);
    const theirs = await otpVerifyChallenge(other, foreign.emailOtp.id);
    expectError(
      await client.post(path, body, { headers: signedHeaders(signature, theirs.first.body.requestId) }),
      404,
      "REQUEST_NOT_FOUND",
    );
    expect(wallet.accountId).toBeTruthy();
  });

  test("another body, or another operation's path, than the challenged request → 401 WALLET_SIGNATURE_BODY_MISMATCH", async () => {
    const { wallet, key: tek, body, path, first } = await prepared();
    const headers = signedHeaders(stamp(first.body.payloadToSign, tek), first.body.requestId);
    const otherBody = { ...body, encryptedOtpBundle: `${body.encryptedOtpBundle} ` };
    expectError(await client.post(path, otherBody, { headers }), 401, "WALLET_SIGNATURE_BODY_MISMATCH");
    const reused = await client.post(
      "/auth/credentials",
      { type: "SMS_OTP", accountId: wallet.accountId },
      { headers },
    );
    expectError(reused, 401, "WALLET_SIGNATURE_BODY_MISMATCH");
    expect((await client.post(path, body, { headers })).status).toBe(200);
  });

  test("a retry after expiresAt → 401 WALLET_SIGNATURE_INVALID saying it expired (body mismatch is checked first)", async () => {
    const { key: tek, body, path, first } = await prepared(clocked.client);
    const headers = signedHeaders(stamp(first.body.payloadToSign, tek), first.body.requestId);
    clock.advance(5 * 60_000 + 1);
    const mismatch = await clocked.client.post(path, { ...body, encryptedOtpBundle: "{}" }, { headers });
    expectError(mismatch, 401, "WALLET_SIGNATURE_BODY_MISMATCH");
    const late = await clocked.client.post<{ reason: string }>(path, body, { headers });
    expectError(late, 401, "WALLET_SIGNATURE_INVALID");
    expect(late.body.reason).toMatch(/expired/);
  });

  test("a used requestId with another valid stamp → 401 WALLET_SIGNATURE_INVALID saying it was used", async () => {
    const { key: tek, body, path, first } = await prepared();
    const done = await client.post(path, body, {
      headers: signedHeaders(stamp(first.body.payloadToSign, tek), first.body.requestId),
    });
    expect(done.status).toBe(200);
    const again = await client.post<{ reason: string }>(path, body, {
      headers: signedHeaders(stamp(first.body.payloadToSign, tek, { fresh: true }), first.body.requestId),
    });
    expectError(again, 401, "WALLET_SIGNATURE_INVALID");
    expect(again.body.reason).toMatch(/already used/);
  });

  test("a signature over other bytes, or by a key that is not the bound client key → 401 WALLET_SIGNATURE_INVALID", async () => {
    const { key: tek, body, path, first } = await prepared();
    const otherBytes = stamp(`${first.body.payloadToSign} `, tek);
    expectError(
      await client.post(path, body, { headers: signedHeaders(otherBytes, first.body.requestId) }),
      401,
      "WALLET_SIGNATURE_INVALID",
    );
    const stranger = stamp(first.body.payloadToSign, newKeyPair());
    expectError(
      await client.post(path, body, { headers: signedHeaders(stranger, first.body.requestId) }),
      401,
      "WALLET_SIGNATURE_INVALID",
    );
    const highS = (() => {
      const signature = p256.Signature.fromBytes(
        p256.sign(new TextEncoder().encode(first.body.payloadToSign), tek.privateKey, { format: "compact" }),
      );
      const flipped = new p256.Signature(signature.r, p256.Point.Fn.neg(signature.s));
      return b64({ publicKey: tek.publicKey, scheme, signature: hex(flipped.toBytes("der")) });
    })();
    expect(
      (await client.post(path, body, { headers: signedHeaders(highS, first.body.requestId) })).status,
    ).toBe(200);
  });
});
