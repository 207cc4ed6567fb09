import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { canonicalJson, sha256Hex } from "../../src/core/hash.js";
import { newAuthMethodRow } from "../../src/wallet-auth/credential-rows.js";
import { insertAuthMethod } from "../../src/wallet-auth/store.js";
import { newUsdAccount, startServer, type TestClient, type TestServer } from "../harness.js";
import {
  type AuthMethodBody,
  type Challenge,
  encryptOtp,
  type KeyPair,
  newKeyPair,
  newWalletCustomer,
  otpLogin,
  type SessionBody,
  signedHeaders,
  signedRequest,
  stamp,
} from "./client.js";

let server: TestServer;
let client: TestClient;
beforeAll(async () => {
  server = await startServer();
  client = server.client;
});
afterAll(() => server.close());

const list = async (accountId: string) =>
  (await client.get<{ data: AuthMethodBody[] }>(`/auth/credentials?accountId=${accountId}`)).body.data;
const sessions = async (accountId: string) =>
  (await client.get<{ data: SessionBody[] }>(`/auth/sessions?accountId=${accountId}`)).body.data;
let phone = 4155550200;
const nextPhone = () => `+1${phone++}`;

/** A wallet whose customer has an e-mail and a phone, logged in through EMAIL_OTP. */
async function loggedInWallet() {
  const wallet = await newWalletCustomer(client, { phoneNumber: nextPhone() });
  const login = await otpLogin(client, wallet.emailOtp.id);
  return { ...wallet, session: login.session, key: login.key };
}

/** Adds the SMS_OTP credential (signed by `key`) and logs in with it. */
async function addSms(accountId: string, key: KeyPair) {
  const added = await signedRequest<AuthMethodBody>(
    client,
    "POST",
    "/auth/credentials",
    { type: "SMS_OTP", accountId },
    key,
  );
  expect(added.status, added.text).toBe(201);
  const smsKey = newKeyPair();
  const body = {
    type: "SMS_OTP",
    encryptedOtpBundle: await encryptOtp(
      String(added.body.otpEncryptionTargetBundle),
      "000000",
      smsKey.publicKey,
    ),
  };
  const path = `/auth/credentials/${added.body.id}/verify`;
  const first = await client.post<Challenge>(path, body);
  const session = await client.post<SessionBody>(path, body, {
    headers: signedHeaders(stamp(first.body.payloadToSign, smsKey), first.body.requestId),
  });
  expect(session.status, session.text).toBe(200);
  return { sms: added.body, smsKey, smsSession: session.body };
}

describe("GET /auth/credentials (conventions §5.2)", () => {
  test("lists the live credentials oldest first, without otpEncryptionTargetBundle; a revoked one is no longer listed", async () => {
    const wallet = await loggedInWallet();
    const { sms, smsKey } = await addSms(wallet.accountId, wallet.key);
    const { otpEncryptionTargetBundle: _bundle, ...smsListed } = sms;
    expect(await list(wallet.accountId)).toEqual([wallet.emailOtp, smsListed]);
    const revoked = await signedRequest(
      client,
      "DELETE",
      `/auth/credentials/${wallet.emailOtp.id}`,
      undefined,
      smsKey,
    );
    expect(revoked.status, revoked.text).toBe(204);
    expect(await list(wallet.accountId)).toEqual([smsListed]);
  });

  test("a missing or malformed accountId → 400 INVALID_INPUT; an unknown or foreign account → empty list; not an embedded wallet → 409 WALLET_NOT_PROVISIONED", async () => {
    const missing = await client.get("/auth/credentials");
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: "INVALID_INPUT",
      details: { errors: [{ field: "accountId" }] },
    });
    expect((await client.get("/auth/credentials?accountId=nope")).status).toBe(400);
    const unknown = await client.get(
      "/auth/credentials?accountId=InternalAccount:0190a3f5-0000-7000-8000-000000000123",
    );
    expect(unknown).toMatchObject({ status: 200, body: { data: [] } });
    const wallet = await newWalletCustomer(client);
    const foreign = await client
      .as(await server.newPlatform())
      .get(`/auth/credentials?accountId=${wallet.accountId}`);
    expect(foreign).toMatchObject({ status: 200, body: { data: [] } });
    const fiat = await client.get(`/auth/credentials?accountId=${await newUsdAccount(client)}`);
    expect(fiat.status).toBe(409);
    expect(fiat.body).toMatchObject({ code: "WALLET_NOT_PROVISIONED" });
  });
});

describe("POST /auth/credentials (conventions §5.2, §5.8 create)", () => {
  test("first call: 202 {type, payloadToSign, requestId, expiresAt}; payloadToSign binds ADD_CREDENTIAL, the account, method, path and canonical body", async () => {
    const wallet = await loggedInWallet();
    const body = { accountId: wallet.accountId, type: "SMS_OTP" };
    const first = await client.post<Challenge>("/auth/credentials", body);
    expect(first.status, first.text).toBe(202);
    expect(first.body.type).toBe("SMS_OTP");
    expect(JSON.parse(first.body.payloadToSign)).toEqual({
      action: "ADD_CREDENTIAL",
      accountId: wallet.accountId,
      requestId: first.body.requestId,
      method: "POST",
      path: "/2025-10-13/auth/credentials",
      bodySha256: sha256Hex(canonicalJson(body)),
      issuedAtMs: expect.any(Number),
    });
    expect(await list(wallet.accountId)).toHaveLength(1);
  });

  test("the retry signed by an active session: 201 SMS_OTP AuthMethod named after the customer phone, with its first otpEncryptionTargetBundle", async () => {
    const wallet = await newWalletCustomer(client, { phoneNumber: "+14155550199" });
    const { key } = await otpLogin(client, wallet.emailOtp.id);
    const added = await signedRequest<AuthMethodBody>(
      client,
      "POST",
      "/auth/credentials",
      { type: "SMS_OTP", accountId: wallet.accountId },
      key,
    );
    expect(added.status, added.text).toBe(201);
    expect(added.body).toMatchObject({
      accountId: wallet.accountId,
      type: "SMS_OTP",
      nickname: "+14155550199",
    });
    expect(added.body.otpEncryptionTargetBundle).toEqual(expect.any(String));
  });

  test("one SMS_OTP per account: a second add → 400 SMS_OTP_CREDENTIAL_ALREADY_EXISTS on the first call", async () => {
    const wallet = await loggedInWallet();
    await addSms(wallet.accountId, wallet.key);
    const again = await client.post("/auth/credentials", { type: "SMS_OTP", accountId: wallet.accountId });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: "SMS_OTP_CREDENTIAL_ALREADY_EXISTS" });
  });

  test("two adds challenged together: the second retry settles 400 SMS_OTP_CREDENTIAL_ALREADY_EXISTS, a terminal answer: re-sending it is 401 WALLET_SIGNATURE_INVALID", async () => {
    const wallet = await loggedInWallet();
    const body = { type: "SMS_OTP", accountId: wallet.accountId };
    const one = await client.post<Challenge>("/auth/credentials", body);
    const two = await client.post<Challenge>("/auth/credentials", body);
    const headersOne = signedHeaders(stamp(one.body.payloadToSign, wallet.key), one.body.requestId);
    const headersTwo = signedHeaders(stamp(two.body.payloadToSign, wallet.key), two.body.requestId);
    expect((await client.post("/auth/credentials", body, { headers: headersOne })).status).toBe(201);
    const late = await client.post("/auth/credentials", body, { headers: headersTwo });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ code: "SMS_OTP_CREDENTIAL_ALREADY_EXISTS" });
    const resent = await client.post("/auth/credentials", body, { headers: headersTwo });
    expect([resent.status, resent.body.code]).toEqual([401, "WALLET_SIGNATURE_INVALID"]);
    expect((await list(wallet.accountId)).filter((m) => m.type === "SMS_OTP")).toHaveLength(1);
  });

  test("a customer without a phone number → 400 MISSING_MANDATORY_USER_INFO for SMS_OTP", async () => {
    const wallet = await newWalletCustomer(client);
    const res = await client.post("/auth/credentials", { type: "SMS_OTP", accountId: wallet.accountId });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "MISSING_MANDATORY_USER_INFO" });
  });

  test("an e-mail tied to another wallet's EMAIL_OTP → 409 EMAIL_OTP_EMAIL_ALREADY_EXISTS when added back", async () => {
    const wallet = await loggedInWallet();
    await newWalletCustomer(client, { email: wallet.email });
    const { smsKey } = await addSms(wallet.accountId, wallet.key);
    const revoked = await signedRequest(
      client,
      "DELETE",
      `/auth/credentials/${wallet.emailOtp.id}`,
      undefined,
      smsKey,
    );
    expect(revoked.status).toBe(204);
    const res = await client.post("/auth/credentials", { type: "EMAIL_OTP", accountId: wallet.accountId });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "EMAIL_OTP_EMAIL_ALREADY_EXISTS" });
  });

  test("only an active session of the account signs: another account's session, a revoked session or a stranger key → 401 WALLET_SIGNATURE_INVALID", async () => {
    const wallet = await loggedInWallet();
    const other = await loggedInWallet();
    const revokedLogin = await otpLogin(client, wallet.emailOtp.id);
    const gone = await signedRequest(
      client,
      "DELETE",
      `/auth/sessions/${revokedLogin.session.id}`,
      undefined,
      wallet.key,
    );
    expect(gone.status).toBe(204);
    const body = { type: "SMS_OTP", accountId: wallet.accountId };
    for (const key of [other.key, revokedLogin.key, newKeyPair()]) {
      const res = await signedRequest(client, "POST", "/auth/credentials", body, key);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    }
  });

  test("an unknown account → 404 ACCOUNT_NOT_FOUND; a fiat account → 409 WALLET_NOT_PROVISIONED", async () => {
    const unknown = await client.post("/auth/credentials", {
      type: "EMAIL_OTP",
      accountId: "InternalAccount:0190a3f5-0000-7000-8000-000000000123",
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
    const fiat = await client.post("/auth/credentials", {
      type: "EMAIL_OTP",
      accountId: await newUsdAccount(client),
    });
    expect(fiat.status).toBe(409);
    expect(fiat.body).toMatchObject({ code: "WALLET_NOT_PROVISIONED" });
  });

  test.each([
    ["an unknown type", { type: "PASSWORD", accountId: "InternalAccount:x" }, "type"],
    ["an unknown field", { type: "SMS_OTP", accountId: "InternalAccount:x", nickname: "n" }, "nickname"],
    ["OAUTH without oidcToken", { type: "OAUTH", accountId: "InternalAccount:x" }, "oidcToken"],
    ["no accountId", { type: "EMAIL_OTP" }, "accountId"],
  ])("%s → 400 INVALID_INPUT naming the field", async (_name, body, field) => {
    const res = await client.post("/auth/credentials", body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field }] } });
  });
});

describe("DELETE /auth/credentials/{id} (flow 9; conventions §5.2, §5.8 revoke)", () => {
  test("202 names the credential's type; signed by a session of another credential → 204; its sessions end with it", async () => {
    const wallet = await loggedInWallet();
    const { smsKey, smsSession } = await addSms(wallet.accountId, wallet.key);
    const path = `/auth/credentials/${wallet.emailOtp.id}`;
    const first = await client.delete<Challenge>(path);
    expect(first.status).toBe(202);
    expect(first.body.type).toBe("EMAIL_OTP");
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      action: "REVOKE_CREDENTIAL",
      method: "DELETE",
      bodySha256: sha256Hex(""),
    });
    const headers = signedHeaders(stamp(first.body.payloadToSign, smsKey), first.body.requestId);
    const done = await client.delete(path, { headers });
    expect(done.status, done.text).toBe(204);
    expect(done.text).toBe("");
    expect(await sessions(wallet.accountId)).toEqual([smsSession]);
    // A requestId is single use: the identical signed retry after its 204 is refused.
    const again = await client.delete(path, { headers });
    expect([again.status, again.body.code]).toEqual([401, "WALLET_SIGNATURE_INVALID"]);
    for (const res of [
      await client.delete(path),
      await client.post(`${path}/challenge`),
      await client.post(`${path}/verify`, { type: "EMAIL_OTP", encryptedOtpBundle: "{}" }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "AUTH_METHOD_NOT_FOUND" });
    }
  });

  test("signed by a session of the credential being revoked → 401 WALLET_SIGNATURE_INVALID", async () => {
    const wallet = await loggedInWallet();
    await addSms(wallet.accountId, wallet.key);
    const res = await signedRequest(
      client,
      "DELETE",
      `/auth/credentials/${wallet.emailOtp.id}`,
      undefined,
      wallet.key,
    );
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    expect(await list(wallet.accountId)).toHaveLength(2);
  });

  test("the account's last credential → 400 INVALID_INPUT on the first call", async () => {
    const wallet = await loggedInWallet();
    const res = await client.delete(`/auth/credentials/${wallet.emailOtp.id}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "id" }] } });
  });

  test("revocations crossing each other: once one ends the other's signing sessions, that retry → 401 and the account keeps its last credential", async () => {
    const wallet = await loggedInWallet();
    const { sms, smsKey } = await addSms(wallet.accountId, wallet.key);
    const third = await otpLogin(client, wallet.emailOtp.id);
    const revokeSms = await client.delete<Challenge>(`/auth/credentials/${sms.id}`);
    const revokeEmail = await client.delete<Challenge>(`/auth/credentials/${wallet.emailOtp.id}`);
    const first = await client.delete(`/auth/credentials/${wallet.emailOtp.id}`, {
      headers: signedHeaders(stamp(revokeEmail.body.payloadToSign, smsKey), revokeEmail.body.requestId),
    });
    expect(first.status).toBe(204);
    // Every EMAIL_OTP session ended with its credential, so nothing else can sign the SMS revoke.
    const late = await client.delete(`/auth/credentials/${sms.id}`, {
      headers: signedHeaders(stamp(revokeSms.body.payloadToSign, third.key), revokeSms.body.requestId),
    });
    expect(late.status).toBe(401);
    expect(late.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    expect(await list(wallet.accountId)).toEqual([expect.objectContaining({ id: sms.id })]);
  });
});

describe("POST /auth/credentials/{id}/challenge (conventions §5.2, §5.8 challenge)", () => {
  test("an OAUTH credential has no challenge → 400 INVALID_INPUT; a PASSKEY credential without clientPublicKey → 400 on clientPublicKey", async () => {
    const wallet = await newWalletCustomer(client);
    const now = new Date();
    const base = { platformId: server.platform.platformId, accountId: wallet.accountId, now };
    const oauth = newAuthMethodRow({ ...base, type: "OAUTH", nickname: "user@example.com" });
    const passkey = newAuthMethodRow({ ...base, type: "PASSKEY", nickname: "Laptop" });
    passkey.credential_id = "Y3JlZA";
    await server.db.transaction(async (tx) => {
      await insertAuthMethod(tx, oauth);
      await insertAuthMethod(tx, passkey);
    });
    const res = await client.post(`/auth/credentials/${oauth.id}/challenge`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT" });
    const noKey = await client.post(`/auth/credentials/${passkey.id}/challenge`, {});
    expect(noKey.status).toBe(400);
    expect(noKey.body).toMatchObject({
      code: "INVALID_INPUT",
      details: { errors: [{ field: "clientPublicKey" }] },
    });
    const badKey = await client.post(`/auth/credentials/${passkey.id}/challenge`, {
      clientPublicKey: "04zz",
    });
    expect(badKey.status).toBe(400);
  });

  test("the challenge of an OTP credential accepts an empty body with no Content-Type, or {}", async () => {
    const wallet = await newWalletCustomer(client);
    expect((await client.post(`/auth/credentials/${wallet.emailOtp.id}/challenge`)).status).toBe(200);
    expect((await client.post(`/auth/credentials/${wallet.emailOtp.id}/challenge`, {})).status).toBe(200);
    const extra = await client.post(`/auth/credentials/${wallet.emailOtp.id}/challenge`, { x: 1 });
    expect(extra.status).toBe(400);
  });
});
