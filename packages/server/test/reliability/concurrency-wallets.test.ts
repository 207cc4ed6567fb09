import { p256 } from "@noble/curves/nist.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { evmWallet, newCustomer, selfCustodyWallet } from "../external-accounts/ownership-helpers.js";
import type { TestServer } from "../harness.js";
import { startServer } from "../harness.js";
import { type Challenge, sessionFor, signedHeaders, walletCustomer } from "../wallet-auth/session-fixture.js";

// Issue 9 part 4: single-use things under concurrency. On PostgreSQL (DATABASE_URL) the requests run in
// parallel on the server's connection pool; PGlite serializes them, where the same rules must hold.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("concurrent ownership-challenge re-issues on one wallet", () => {
  test("20 at once: exactly 5 are issued (201) and 15 are 429 RATE_LIMITED, and exactly one challenge is open at the end", async () => {
    const client = server.client;
    const key = evmWallet();
    const account = await selfCustodyWallet(client, await newCustomer(client), key.address);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        client.post<{ messageToSign: string; code?: string }>(
          `/customers/external-accounts/${account.id}/challenge`,
          { method: "WALLET_SIGNATURE" },
        ),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(5).fill(201), ...Array(15).fill(429)]);
    for (const r of responses.filter((r) => r.status === 429)) {
      expect(r.body.code).toBe("RATE_LIMITED");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    const rows = await server.db.query<{ state: string; message_to_sign: string }>(
      "SELECT state, message_to_sign FROM ownership_challenges WHERE external_account_id = $1",
      [account.id],
    );
    expect(rows.map((r) => r.state).sort()).toEqual([
      "ABANDONED",
      "ABANDONED",
      "ABANDONED",
      "ABANDONED",
      "OPEN",
    ]);
    // The open one is one of the five issued, and it is the one that verifies.
    const open = rows.find((r) => r.state === "OPEN")?.message_to_sign as string;
    expect(responses.filter((r) => r.status === 201).map((r) => r.body.messageToSign)).toContain(open);
    const verified = await client.post<{ status: string }>(
      `/customers/external-accounts/${account.id}/verify`,
      {
        signature: key.sign(open),
      },
    );
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.status).toBe("ACTIVE");
  });
});

describe("concurrent signed retries with the same requestId", () => {
  test("ten retries signed by ten different sessions: exactly one completes (200), the nine others are 401 WALLET_SIGNATURE_INVALID 'already used'", async () => {
    const { accountId } = await walletCustomer(server.client);
    const sessions = [];
    for (let i = 0; i < 10; i++) sessions.push(await sessionFor(server, accountId));
    const path = `/internal-accounts/${accountId}`;
    const body = { privateEnabled: true };
    const challenge = (await server.client.patch<Challenge>(path, body)).body;
    const responses = await Promise.all(
      sessions.map(async (session) =>
        server.client.patch<{ code?: string; reason?: string; privateEnabled?: boolean }>(path, body, {
          headers: await signedHeaders(session, challenge),
        }),
      ),
    );
    const won = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status !== 200);
    expect(won).toHaveLength(1);
    expect(won[0]?.body.privateEnabled).toBe(true);
    expect(refused.map((r) => [r.status, r.body.code])).toEqual(
      Array(9).fill([401, "WALLET_SIGNATURE_INVALID"]),
    );
    for (const r of refused) expect(r.body.reason).toContain("already used");
    const [row] = await server.db.query<{ state: string }>(
      "SELECT state FROM signed_requests WHERE id = $1",
      [challenge.requestId],
    );
    expect(row?.state).toBe("ANSWERED");
  });

  test("ten identical signed retries at once: the operation runs once, one answer is 201 and the nine others are 401 WALLET_SIGNATURE_INVALID (a requestId is single use)", async () => {
    const { accountId } = await walletCustomer(server.client);
    const session = await sessionFor(server, accountId);
    const path = `/auth/sessions/${session.sessionId}/refresh`;
    const next = Buffer.from(p256.getPublicKey(p256.utils.randomSecretKey(), true)).toString("hex");
    const body = { clientPublicKey: next };
    const challenge = await server.client.post<Challenge>(path, body);
    expect(challenge.status, challenge.text).toBe(202);
    const headers = await signedHeaders(session, challenge.body);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        server.client.post<{ id?: string; code?: string }>(path, body, { headers }),
      ),
    );
    const won = responses.filter((r) => r.status === 201);
    expect(won).toHaveLength(1);
    expect(responses.filter((r) => r.status !== 201).map((r) => [r.status, r.body.code])).toEqual(
      Array(9).fill([401, "WALLET_SIGNATURE_INVALID"]),
    );
    const ids = new Set(won.map((r) => r.body.id));
    const live = await server.client.get<{ data: { id: string }[] }>(`/auth/sessions?accountId=${accountId}`);
    expect(live.body.data.map((s) => s.id)).toEqual([...ids]);
    const [count] = await server.db.query<{ n: number }>(
      "SELECT count(*)::int8 AS n FROM auth_sessions WHERE account_id = $1 AND public_key = $2",
      [accountId, next],
    );
    expect(count?.n).toBe(1);
  });
});
