import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ControlledClock } from "../../src/core/clock.js";
import { canonicalJson, sha256Hex } from "../../src/core/hash.js";
import { newUsdAccount, startServer, type TestClient, type TestServer } from "../harness.js";
import {
  type Challenge,
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
let clock: ControlledClock;
beforeAll(async () => {
  clock = new ControlledClock();
  server = await startServer({ clock });
  client = server.client;
});
afterAll(() => server.close());

const sessions = async (accountId: string) =>
  (await client.get<{ data: SessionBody[] }>(`/auth/sessions?accountId=${accountId}`)).body.data;

async function loggedInWallet() {
  const wallet = await newWalletCustomer(client);
  const login = await otpLogin(client, wallet.emailOtp.id);
  return { ...wallet, ...login };
}

describe("GET /auth/sessions (conventions §5.2)", () => {
  test("lists active sessions oldest first with no key material; revoked and expired sessions are left out", async () => {
    const wallet = await loggedInWallet();
    clock.advance(60_000);
    const second = await otpLogin(client, wallet.emailOtp.id);
    const third = await otpLogin(client, wallet.emailOtp.id);
    const listed = await sessions(wallet.accountId);
    expect(listed).toEqual([wallet.session, second.session, third.session]);
    for (const session of listed) expect(session).not.toHaveProperty("encryptedSessionSigningKey");
    const revoked = await signedRequest(
      client,
      "DELETE",
      `/auth/sessions/${third.session.id}`,
      undefined,
      wallet.key,
    );
    expect(revoked.status).toBe(204);
    expect(await sessions(wallet.accountId)).toEqual([wallet.session, second.session]);
    clock.advance(14 * 60_000 + 1);
    expect(await sessions(wallet.accountId)).toEqual([second.session]);
  });

  test("a missing or malformed accountId → 400; an unknown account → empty list; not an embedded wallet → 409 WALLET_NOT_PROVISIONED", async () => {
    expect((await client.get("/auth/sessions")).status).toBe(400);
    expect((await client.get("/auth/sessions?accountId=Session:x")).status).toBe(400);
    const unknown = await client.get(
      "/auth/sessions?accountId=InternalAccount:0190a3f5-0000-7000-8000-000000000123",
    );
    expect(unknown).toMatchObject({ status: 200, body: { data: [] } });
    const fiat = await client.get(`/auth/sessions?accountId=${await newUsdAccount(client)}`);
    expect(fiat.status).toBe(409);
    expect(fiat.body).toMatchObject({ code: "WALLET_NOT_PROVISIONED" });
  });
});

describe("POST /auth/sessions/{id}/refresh (conventions §5.2)", () => {
  test("202 without type; the retry signed by the session → 201 a new session keyed by clientPublicKey, the old one revoked", async () => {
    const wallet = await loggedInWallet();
    const next = newKeyPair();
    const path = `/auth/sessions/${wallet.session.id}/refresh`;
    const body = { clientPublicKey: next.publicKey };
    const first = await client.post<Challenge>(path, body);
    expect(first.status, first.text).toBe(202);
    expect(Object.keys(first.body).sort()).toEqual(["expiresAt", "payloadToSign", "requestId"]);
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      action: "REFRESH_SESSION",
      accountId: wallet.accountId,
      path: `/2025-10-13${path}`,
      bodySha256: sha256Hex(canonicalJson(body)),
    });
    clock.advance(60_000);
    const headers = signedHeaders(stamp(first.body.payloadToSign, wallet.key), first.body.requestId);
    const renewed = await client.post<SessionBody>(path, body, { headers });
    expect(renewed.status, renewed.text).toBe(201);
    expect(renewed.body.id).not.toBe(wallet.session.id);
    expect(renewed.body).toMatchObject({
      accountId: wallet.accountId,
      type: "EMAIL_OTP",
      nickname: wallet.email,
    });
    expect(Date.parse(renewed.body.expiresAt) - Date.parse(renewed.body.createdAt)).toBe(15 * 60_000);
    expect(Date.parse(renewed.body.expiresAt)).toBeGreaterThan(Date.parse(wallet.session.expiresAt));
    expect(await sessions(wallet.accountId)).toEqual([renewed.body]);
    // A requestId is single use: the identical signed retry re-sent is refused.
    const resent = await client.post(path, body, { headers });
    expect([resent.status, resent.body.code]).toEqual([401, "WALLET_SIGNATURE_INVALID"]);
    // The old key no longer signs; the new one does.
    const old = await signedRequest(
      client,
      "DELETE",
      `/auth/sessions/${renewed.body.id}`,
      undefined,
      wallet.key,
    );
    expect(old.status).toBe(401);
    const own = await signedRequest(client, "DELETE", `/auth/sessions/${renewed.body.id}`, undefined, next);
    expect(own.status).toBe(204);
  });

  test("signed by another session of the account → 401 WALLET_SIGNATURE_INVALID", async () => {
    const wallet = await loggedInWallet();
    const other = await otpLogin(client, wallet.emailOtp.id);
    const res = await signedRequest(
      client,
      "POST",
      `/auth/sessions/${wallet.session.id}/refresh`,
      { clientPublicKey: newKeyPair().publicKey },
      other.key,
    );
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
  });

  test.each([
    ["uncompressed", () => newKeyPair().publicKeyUncompressed],
    ["not hex", () => `02${"zz".repeat(32)}`],
  ])("a clientPublicKey %s → 400 INVALID_INPUT on clientPublicKey", async (_name, key) => {
    const wallet = await loggedInWallet();
    const res = await client.post(`/auth/sessions/${wallet.session.id}/refresh`, { clientPublicKey: key() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "INVALID_INPUT",
      details: { errors: [{ field: "clientPublicKey" }] },
    });
  });

  test("another clientPublicKey on the retry → 401 WALLET_SIGNATURE_BODY_MISMATCH", async () => {
    const wallet = await loggedInWallet();
    const path = `/auth/sessions/${wallet.session.id}/refresh`;
    const first = await client.post<Challenge>(path, { clientPublicKey: newKeyPair().publicKey });
    const res = await client.post(
      path,
      { clientPublicKey: newKeyPair().publicKey },
      { headers: signedHeaders(stamp(first.body.payloadToSign, wallet.key), first.body.requestId) },
    );
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "WALLET_SIGNATURE_BODY_MISMATCH" });
  });

  test("an unknown, malformed, revoked or expired session → 404 SESSION_NOT_FOUND", async () => {
    const wallet = await loggedInWallet();
    const body = { clientPublicKey: newKeyPair().publicKey };
    for (const id of ["Session:0190a3f5-0000-7000-8000-000000000123", "Session:nope", wallet.emailOtp.id]) {
      const res = await client.post(`/auth/sessions/${id}/refresh`, body);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "SESSION_NOT_FOUND" });
    }
    const revoked = await otpLogin(client, wallet.emailOtp.id);
    await signedRequest(client, "DELETE", `/auth/sessions/${revoked.session.id}`, undefined, wallet.key);
    expect((await client.post(`/auth/sessions/${revoked.session.id}/refresh`, body)).status).toBe(404);
    clock.advance(15 * 60_000 + 1);
    expect((await client.post(`/auth/sessions/${wallet.session.id}/refresh`, body)).status).toBe(404);
  });

  test("the session expires between the challenge and the retry → 401 WALLET_SIGNATURE_INVALID", async () => {
    const wallet = await loggedInWallet();
    clock.advance(13 * 60_000);
    const path = `/auth/sessions/${wallet.session.id}/refresh`;
    const body = { clientPublicKey: newKeyPair().publicKey };
    const first = await client.post<Challenge>(path, body);
    expect(first.status).toBe(202);
    clock.advance(2 * 60_000 + 1);
    const res = await client.post(path, body, {
      headers: signedHeaders(stamp(first.body.payloadToSign, wallet.key), first.body.requestId),
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
  });
});

describe("DELETE /auth/sessions/{id} (conventions §5.2)", () => {
  test("202 names the issuing credential's type; signed by the session itself → 204; it is no longer listed and cannot sign", async () => {
    const wallet = await loggedInWallet();
    const other = await otpLogin(client, wallet.emailOtp.id);
    const path = `/auth/sessions/${wallet.session.id}`;
    const first = await client.delete<Challenge>(path);
    expect(first.status).toBe(202);
    expect(first.body.type).toBe("EMAIL_OTP");
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      action: "REVOKE_SESSION",
      method: "DELETE",
    });
    const headers = signedHeaders(stamp(first.body.payloadToSign, wallet.key), first.body.requestId);
    const done = await client.delete(path, { headers });
    expect(done.status, done.text).toBe(204);
    expect(await sessions(wallet.accountId)).toEqual([other.session]);
    const resent = await client.delete(path, { headers });
    expect([resent.status, resent.body.code]).toEqual([401, "WALLET_SIGNATURE_INVALID"]);
    const signs = await signedRequest(
      client,
      "DELETE",
      `/auth/sessions/${other.session.id}`,
      undefined,
      wallet.key,
    );
    expect(signs.status).toBe(401);
  });

  test("any other active session of the account may sign it; a session of another account may not", async () => {
    const wallet = await loggedInWallet();
    const other = await otpLogin(client, wallet.emailOtp.id);
    const stranger = await loggedInWallet();
    const path = `/auth/sessions/${wallet.session.id}`;
    const refused = await signedRequest(client, "DELETE", path, undefined, stranger.key);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    expect((await signedRequest(client, "DELETE", path, undefined, other.key)).status).toBe(204);
    expect(await sessions(wallet.accountId)).toEqual([other.session]);
  });

  test("a session revoked between its challenge and the retry: the retry settles 404 SESSION_NOT_FOUND, a terminal answer: re-sending is 401 WALLET_SIGNATURE_INVALID", async () => {
    const wallet = await loggedInWallet();
    const other = await otpLogin(client, wallet.emailOtp.id);
    const path = `/auth/sessions/${other.session.id}`;
    const first = await client.delete<Challenge>(path);
    expect((await signedRequest(client, "DELETE", path, undefined, other.key)).status).toBe(204);
    const headers = signedHeaders(stamp(first.body.payloadToSign, wallet.key), first.body.requestId);
    const late = await client.delete(path, { headers });
    expect(late.status).toBe(404);
    expect(late.body).toMatchObject({ code: "SESSION_NOT_FOUND" });
    const resent = await client.delete(path, { headers });
    expect([resent.status, resent.body.code]).toEqual([401, "WALLET_SIGNATURE_INVALID"]);
  });
});
