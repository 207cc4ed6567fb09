import { p256 } from "@noble/curves/nist.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newUsdAccount, startServer, type TestServer } from "../harness.js";
import {
  type Challenge,
  type SessionKey,
  sessionFor,
  signedCall,
  signedHeaders,
  stampOf,
  walletCustomer,
} from "./session-fixture.js";

type Account = { id: string; type: string; privateEnabled?: boolean; updatedAt: string };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const path = (accountId: string) => `/internal-accounts/${accountId}`;

async function wallet(): Promise<{ accountId: string; session: SessionKey }> {
  const { accountId } = await walletCustomer(server.client);
  return { accountId, session: await sessionFor(server, accountId) };
}

describe("PATCH /internal-accounts/{id} {privateEnabled} (conventions §2.2, §5.2)", () => {
  test("the first call answers 202 without type, for action UPDATE_INTERNAL_ACCOUNT on the account; nothing changes yet", async () => {
    const { accountId } = await wallet();
    const res = await server.client.patch<Challenge>(path(accountId), { privateEnabled: true });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(["expiresAt", "payloadToSign", "requestId"]);
    expect(JSON.parse(res.body.payloadToSign)).toMatchObject({
      action: "UPDATE_INTERNAL_ACCOUNT",
      accountId,
      requestId: res.body.requestId,
      method: "PATCH",
      path: `/2025-10-13/internal-accounts/${accountId}`,
    });
    expect((await server.client.get<Account>(path(accountId))).body.privateEnabled).toBe(false);
  });

  test("the signed retry answers 200 InternalAccount with the change, which GET then shows", async () => {
    const { accountId, session } = await wallet();
    const before = (await server.client.get<Account>(path(accountId))).body;
    const { result } = await signedCall<Account>(
      server.client,
      "PATCH",
      path(accountId),
      { privateEnabled: true },
      session,
    );
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ id: accountId, type: "EMBEDDED_WALLET", privateEnabled: true });
    expect(result.body.updatedAt >= before.updatedAt).toBe(true);
    expect((await server.client.get<Account>(path(accountId))).body).toEqual(result.body);
  });

  test("a requestId is single use: the identical signed request re-sent after its 200 is 401 WALLET_SIGNATURE_INVALID and changes nothing again", async () => {
    const { accountId, session } = await wallet();
    const on = await signedCall<Account>(
      server.client,
      "PATCH",
      path(accountId),
      { privateEnabled: true },
      session,
    );
    const off = await signedCall<Account>(
      server.client,
      "PATCH",
      path(accountId),
      { privateEnabled: false },
      session,
    );
    expect(off.result.body.privateEnabled).toBe(false);
    const again = await server.client.patch<Account>(
      path(accountId),
      { privateEnabled: true },
      { headers: on.headers },
    );
    expect(again.status).toBe(401);
    expect(again.body).toEqual({
      code: "WALLET_SIGNATURE_INVALID",
      reason: expect.stringMatching(/already used/),
    });
    expect((await server.client.get<Account>(path(accountId))).body.privateEnabled).toBe(false);
  });

  test("a session of another account, an ended session, or a key with no session cannot sign: 401 WALLET_SIGNATURE_INVALID", async () => {
    const { accountId } = await wallet();
    const other = await wallet();
    const foreign = await signedCall(
      server.client,
      "PATCH",
      path(accountId),
      { privateEnabled: true },
      other.session,
    );
    expect(foreign.result.status).toBe(401);
    expect(foreign.result.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    const expired = await sessionFor(server, accountId);
    await server.db.query("UPDATE auth_sessions SET expires_at = created_at WHERE id = $1", [
      expired.sessionId,
    ]);
    const late = await signedCall(server.client, "PATCH", path(accountId), { privateEnabled: true }, expired);
    expect(late.result.status).toBe(401);
    const secret = p256.utils.randomSecretKey();
    const stranger: SessionKey = {
      sessionId: "none",
      publicKey: Buffer.from(p256.getPublicKey(secret, true)).toString("hex"),
      privateKey: Buffer.from(secret).toString("hex"),
    };
    const unknown = await signedCall(
      server.client,
      "PATCH",
      path(accountId),
      { privateEnabled: true },
      stranger,
    );
    expect(unknown.result.status).toBe(401);
    expect(unknown.result.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    expect((await server.client.get<Account>(path(accountId))).body.privateEnabled).toBe(false);
  });

  test("an account that is not an embedded wallet is 409 WALLET_NOT_PROVISIONED; an unknown one 404 ACCOUNT_NOT_FOUND", async () => {
    const usd = await newUsdAccount(server.client);
    const fiat = await server.client.patch(path(usd), { privateEnabled: true });
    expect(fiat.status).toBe(409);
    expect(fiat.body).toMatchObject({ code: "WALLET_NOT_PROVISIONED" });
    const missing = await server.client.patch(path("InternalAccount:019a0000-0000-7000-8000-000000000001"), {
      privateEnabled: true,
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
  });

  test.each([
    ["no privateEnabled", {}],
    ["a string", { privateEnabled: "true" }],
    ["an unknown field", { privateEnabled: true, status: "FROZEN" }],
  ])("a body with %s is 400 INVALID_INPUT, before the account is looked up", async (_name, body) => {
    const res = await server.client.patch(path("InternalAccount:019a0000-0000-7000-8000-000000000001"), body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT" });
  });
});

describe("the signed-retry checks on this endpoint (conventions §5.3 table, in order)", () => {
  async function challenged() {
    const { accountId, session } = await wallet();
    const body = { privateEnabled: true };
    const challenge = (await server.client.patch<Challenge>(path(accountId), body)).body;
    return { accountId, session, body, challenge };
  }

  test("a signature without Request-Id is 401 REQUEST_ID_MISSING", async () => {
    const { accountId, session, body, challenge } = await challenged();
    const res = await server.client.patch(path(accountId), body, {
      headers: { "service-wallet-signature": await stampOf(session, challenge.payloadToSign) },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "REQUEST_ID_MISSING" });
  });

  test("Request-Id without a signature is 401 WALLET_SIGNATURE_MISSING", async () => {
    const { accountId, body, challenge } = await challenged();
    const res = await server.client.patch(path(accountId), body, {
      headers: { "request-id": challenge.requestId },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "WALLET_SIGNATURE_MISSING" });
  });

  test.each([
    ["not base64url JSON", "%%%"],
    ["missing a field", Buffer.from(JSON.stringify({ publicKey: "02", scheme: "x" })).toString("base64url")],
  ])("a stamp %s is 401 WALLET_SIGNATURE_MALFORMED", async (_name, stamp) => {
    const { accountId, body, challenge } = await challenged();
    const res = await server.client.patch(path(accountId), body, {
      headers: { "service-wallet-signature": stamp, "request-id": challenge.requestId },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "WALLET_SIGNATURE_MALFORMED" });
  });

  test("an unknown requestId, or another platform's, is 404 REQUEST_NOT_FOUND", async () => {
    const { accountId, session, body, challenge } = await challenged();
    const unknown = await server.client.patch(path(accountId), body, {
      headers: await signedHeaders(session, {
        ...challenge,
        requestId: "Request:019a0000-0000-7000-8000-000000000001",
      }),
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "REQUEST_NOT_FOUND" });
    const platform = await server.newPlatform();
    const otherClient = server.client.as(platform);
    const { accountId: otherAccount } = await walletCustomer(otherClient);
    const foreign = await otherClient.patch(path(otherAccount), body, {
      headers: await signedHeaders(session, challenge),
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: "REQUEST_NOT_FOUND" });
  });

  test("another body or another account's path with the same requestId is 401 WALLET_SIGNATURE_BODY_MISMATCH", async () => {
    const { accountId, session, challenge } = await challenged();
    const headers = await signedHeaders(session, challenge);
    const body = await server.client.patch(path(accountId), { privateEnabled: false }, { headers });
    expect(body.status).toBe(401);
    expect(body.body).toMatchObject({ code: "WALLET_SIGNATURE_BODY_MISMATCH" });
    const other = await wallet();
    const elsewhere = await server.client.patch(path(other.accountId), { privateEnabled: true }, { headers });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body).toMatchObject({ code: "WALLET_SIGNATURE_BODY_MISMATCH" });
  });

  test("a stamp over another payload is 401 WALLET_SIGNATURE_INVALID", async () => {
    const { accountId, session, body, challenge } = await challenged();
    const res = await server.client.patch(path(accountId), body, {
      headers: {
        "service-wallet-signature": await stampOf(session, `${challenge.payloadToSign} `),
        "request-id": challenge.requestId,
      },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
  });

  test("a completed requestId signed again by another session is 401 WALLET_SIGNATURE_INVALID (reuse)", async () => {
    const { accountId, session, body, challenge } = await challenged();
    const done = await server.client.patch(path(accountId), body, {
      headers: await signedHeaders(session, challenge),
    });
    expect(done.status).toBe(200);
    const second = await sessionFor(server, accountId);
    const reuse = await server.client.patch(path(accountId), body, {
      headers: await signedHeaders(second, challenge),
    });
    expect(reuse.status).toBe(401);
    expect(reuse.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    expect(String(reuse.body.reason)).toContain("already used");
  });
});
