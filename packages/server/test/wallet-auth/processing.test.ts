import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Credentials, startServer, type TestClient, type TestServer } from "../harness.js";
import {
  type Challenge,
  platformNow,
  type SessionKey,
  sessionFor,
  signedCall,
  signedHeaders,
  walletCustomer,
} from "./session-fixture.js";

type Account = { id: string; privateEnabled?: boolean; updatedAt: string };
type Session = { id: string };
type Config = {
  bundleSigningPublicKey: string;
  walletAuthConfig: { sandboxProcessingDelayMs: number; passkey?: unknown };
};

// The sandbox PROCESSING delay (PATCH /config walletAuthConfig.sandboxProcessingDelayMs) lets clients test
// interface "Handling a still-processing response" rules 1-3. DELETE /auth/sessions/{id}, one of the seven
// endpoints that may answer PROCESSING, is the signed action here because GET /auth/sessions shows its
// effect; the platform's sandbox clock decides when it is ready.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const DELAY_MS = 20_000;
const path = (accountId: string) => `/internal-accounts/${accountId}`;
const sessionPath = (sessionId: string) => `/auth/sessions/${sessionId}`;

async function delayedPlatform(delayMs = DELAY_MS): Promise<{ platform: Credentials; client: TestClient }> {
  const platform = await server.newPlatform();
  const client = server.client.as(platform);
  const res = await client.patch<Config>("/config", {
    walletAuthConfig: { sandboxProcessingDelayMs: delayMs },
  });
  expect(res.status).toBe(200);
  return { platform, client };
}

/** A wallet with two sessions: `signer` authorizes revoking `target`. */
async function wallet(
  client: TestClient,
  platform: Credentials,
): Promise<{ accountId: string; signer: SessionKey; target: SessionKey }> {
  const { accountId } = await walletCustomer(client);
  const signer = await sessionFor(server, accountId, platform.platformId);
  return { accountId, signer, target: await sessionFor(server, accountId, platform.platformId) };
}

async function liveSessions(client: TestClient, accountId: string): Promise<string[]> {
  const res = await client.get<{ data: Session[] }>(`/auth/sessions?accountId=${accountId}`);
  expect(res.status).toBe(200);
  return res.body.data.map((s) => s.id).sort();
}

function expectSpent(res: { status: number; body: unknown }): void {
  expect(res.status).toBe(401);
  expect(res.body).toEqual({
    code: "WALLET_SIGNATURE_INVALID",
    reason: expect.stringMatching(/already used/),
  });
}

async function advance(client: TestClient, platform: Credentials, ms: number): Promise<void> {
  const now = await platformNow(server, platform.platformId);
  const res = await client.post("/sandbox/clock/advance", { to: new Date(now.getTime() + ms).toISOString() });
  expect(res.status).toBe(200);
}

async function requestRow(requestId: string) {
  const [row] = await server.db.query<{
    state: string;
    completed_at: Date | null;
    result_body: string | null;
  }>("SELECT state, completed_at, result_body FROM signed_requests WHERE id = $1", [requestId]);
  return row;
}

describe("walletAuthConfig.sandboxProcessingDelayMs on /config", () => {
  test("GET /config shows walletAuthConfig with sandboxProcessingDelayMs 0 by default, and the bundle-signing key", async () => {
    const client = server.client.as(await server.newPlatform());
    const res = await client.get<Config>("/config");
    expect(res.status).toBe(200);
    expect(res.body.walletAuthConfig).toEqual({ sandboxProcessingDelayMs: 0 });
    expect(res.body.bundleSigningPublicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(JSON.stringify(res.body)).not.toContain("privateKey");
  });

  test("PATCH merges walletAuthConfig key by key: other settings and the bundle-signing key are kept", async () => {
    const client = server.client.as(await server.newPlatform());
    const before = (await client.get<Config>("/config")).body;
    const passkey = { rpId: "wallet.example.com", origins: ["https://wallet.example.com"] };
    expect((await client.patch("/config", { walletAuthConfig: { passkey } })).status).toBe(200);
    const res = await client.patch<Config>("/config", {
      walletAuthConfig: { sandboxProcessingDelayMs: 1500 },
    });
    expect(res.status).toBe(200);
    expect(res.body.walletAuthConfig).toEqual({ passkey, sandboxProcessingDelayMs: 1500 });
    expect(res.body.bundleSigningPublicKey).toBe(before.bundleSigningPublicKey);
    expect((await client.get<Config>("/config")).body).toEqual(res.body);
  });

  test.each([[-1], [60_001], [1.5], ["10"]])(
    "sandboxProcessingDelayMs %s is 400 INVALID_INPUT",
    async (value) => {
      const res = await server.client.patch("/config", {
        walletAuthConfig: { sandboxProcessingDelayMs: value },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: "INVALID_INPUT",
        details: {
          errors: [expect.objectContaining({ field: "walletAuthConfig.sandboxProcessingDelayMs" })],
        },
      });
    },
  );

  test("a production platform cannot set it: 400 INVALID_INPUT", async () => {
    const client = server.client.as(await server.newPlatform("PRODUCTION"));
    const res = await client.patch("/config", { walletAuthConfig: { sandboxProcessingDelayMs: 1000 } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "INVALID_INPUT",
      details: {
        errors: [{ field: "walletAuthConfig.sandboxProcessingDelayMs", message: expect.any(String) }],
      },
    });
    expect((await client.get<Config>("/config")).body.walletAuthConfig.sandboxProcessingDelayMs).toBe(0);
  });

  test("a platform created before the bundle-signing key existed gets one on its first GET /config", async () => {
    const platform = await server.newPlatform();
    await server.db.query("UPDATE platforms SET wallet_auth_config = '{}'::jsonb WHERE id = $1", [
      platform.platformId,
    ]);
    const client = server.client.as(platform);
    const first = (await client.get<Config>("/config")).body.bundleSigningPublicKey;
    expect(first).toMatch(/^04[0-9a-f]{128}$/);
    expect((await client.get<Config>("/config")).body.bundleSigningPublicKey).toBe(first);
  });
});

describe("PROCESSING and its completion (interface 'Handling a still-processing response')", () => {
  test("without a delay the signed retry settles at once: 204", async () => {
    const { platform, client } = await delayedPlatform(0);
    const { accountId, signer, target } = await wallet(client, platform);
    const { result } = await signedCall(client, "DELETE", sessionPath(target.sessionId), undefined, signer);
    expect(result.status).toBe(204);
    expect(await liveSessions(client, accountId)).toEqual([signer.sessionId]);
  });

  test("the first signed call answers 200 PROCESSING and the identical re-send before ready answers PROCESSING again", async () => {
    const { platform, client } = await delayedPlatform();
    const { accountId, signer, target } = await wallet(client, platform);
    const both = [signer.sessionId, target.sessionId].sort();
    const call = await signedCall(client, "DELETE", sessionPath(target.sessionId), undefined, signer);
    expect(call.result.status).toBe(200);
    expect(call.result.body).toEqual({ status: "PROCESSING", message: expect.any(String) });
    expect(await liveSessions(client, accountId)).toEqual(both);
    await advance(client, platform, DELAY_MS - 5_000);
    const again = await client.delete(sessionPath(target.sessionId), { headers: call.headers });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: "PROCESSING" });
    expect(await liveSessions(client, accountId)).toEqual(both);
    expect((await requestRow(call.challenge.body.requestId))?.state).toBe("PROCESSING");
  });

  test("once the platform clock passes ready, the identical re-send gets the terminal result; any later use of the requestId is 401 WALLET_SIGNATURE_INVALID", async () => {
    const { platform, client } = await delayedPlatform();
    const { accountId, signer, target } = await wallet(client, platform);
    // The reconciler is held back so that the client's re-send is what completes the operation.
    await server.jobs.stop();
    try {
      const call = await signedCall(client, "DELETE", sessionPath(target.sessionId), undefined, signer);
      expect(call.result.body).toMatchObject({ status: "PROCESSING" });
      await advance(client, platform, DELAY_MS + 1_000);
      const settled = await client.delete(sessionPath(target.sessionId), { headers: call.headers });
      expect(settled.status).toBe(204);
      expect(await liveSessions(client, accountId)).toEqual([signer.sessionId]);
      const row = await requestRow(call.challenge.body.requestId);
      expect(row?.state).toBe("ANSWERED");
      // The reconciler then finds it settled and changes nothing.
      await server.jobs.runDue();
      expect(await requestRow(call.challenge.body.requestId)).toEqual(row);
      expectSpent(await client.delete(sessionPath(target.sessionId), { headers: call.headers }));
    } finally {
      server.jobs.start();
    }
  });

  test("a different signature on the requestId of a PROCESSING operation is 401 WALLET_SIGNATURE_INVALID", async () => {
    const { platform, client } = await delayedPlatform();
    const { accountId, signer, target } = await wallet(client, platform);
    const call = await signedCall(client, "DELETE", sessionPath(target.sessionId), undefined, signer);
    expect(call.result.body).toMatchObject({ status: "PROCESSING" });
    const res = await client.delete(sessionPath(target.sessionId), {
      headers: await signedHeaders(target, call.challenge.body as Challenge),
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    // The original identical request is still the one that completes it.
    await advance(client, platform, DELAY_MS + 1_000);
    const settled = await client.delete(sessionPath(target.sessionId), { headers: call.headers });
    expect(settled.status).toBe(204);
    expect(await liveSessions(client, accountId)).toEqual([signer.sessionId]);
  });

  test("the reconciler completes it on its own when the client never re-sends, visible through GET; the identical re-send then gets that result once", async () => {
    const { platform, client } = await delayedPlatform();
    const { accountId, signer, target } = await wallet(client, platform);
    const call = await signedCall(client, "DELETE", sessionPath(target.sessionId), undefined, signer);
    expect(call.result.body).toMatchObject({ status: "PROCESSING" });
    await server.jobs.runDue();
    expect(await liveSessions(client, accountId)).toEqual([signer.sessionId, target.sessionId].sort());
    await advance(client, platform, DELAY_MS + 1_000);
    await server.jobs.runDue();
    expect(await liveSessions(client, accountId)).toEqual([signer.sessionId]);
    expect((await requestRow(call.challenge.body.requestId))?.state).toBe("COMPLETED");
    const resent = await client.delete(sessionPath(target.sessionId), { headers: call.headers });
    expect(resent.status).toBe(204);
    expect(resent.text).toBe("");
    expect((await requestRow(call.challenge.body.requestId))?.state).toBe("ANSWERED");
    expectSpent(await client.delete(sessionPath(target.sessionId), { headers: call.headers }));
  });

  test("PATCH /internal-accounts/{id} never answers PROCESSING: the interface does not list it", async () => {
    const { platform, client } = await delayedPlatform();
    const { accountId, signer } = await wallet(client, platform);
    const { result } = await signedCall<Account>(
      client,
      "PATCH",
      path(accountId),
      { privateEnabled: true },
      signer,
    );
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ id: accountId, privateEnabled: true });
    expect((await client.get<Account>(path(accountId))).body.privateEnabled).toBe(true);
  });

  test("PATCH /customers never answers PROCESSING: the interface does not list it", async () => {
    const { platform, client } = await delayedPlatform();
    const { customerId, accountId } = await walletCustomer(client);
    const session = await sessionFor(server, accountId, platform.platformId);
    const email = `p${Math.random().toString(36).slice(2, 10)}@example.com`;
    const { result } = await signedCall<{ email: string }>(
      client,
      "PATCH",
      `/customers/${customerId}`,
      { email },
      session,
    );
    expect(result.status).toBe(200);
    expect(result.body.email).toBe(email);
  });
});
