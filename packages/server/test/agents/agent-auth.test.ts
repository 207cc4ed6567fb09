import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { startServer, type TestServer } from "../harness.js";
import { AgentClient, agentSetup, type ErrorBody, transfer } from "./helpers.js";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

type OpenApi = {
  components: { securitySchemes: Record<string, unknown> };
  paths: Record<string, Record<string, { security?: unknown[] }>>;
};

describe("AgentAuth", () => {
  test("an agent's Bearer accessToken reads GET /agents/me, bound to its customer", async () => {
    const { agent, agentClient, customerId } = await agentSetup(server);
    const res = await agentClient.get<{ id: string; customerId: string }>("/agents/me");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: agent.id, customerId, isConnected: true, isPaused: false });
  });

  test("no credentials, an unknown token or BasicAuth on an agent route is 401 UNAUTHORIZED with a Bearer challenge", async () => {
    const none = await server.client.get<ErrorBody>("/agents/me", { auth: null });
    const unknown = await new AgentClient(server.client, "agt_unknown").get<ErrorBody>("/agents/me");
    const basic = await server.client.get<ErrorBody>("/agents/me/internal-accounts");
    for (const res of [none, unknown, basic]) {
      expect([res.status, res.body.code]).toEqual([401, "UNAUTHORIZED"]);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="paysvc"');
    }
  });

  test("an agent token on a platform route is 401 UNAUTHORIZED", async () => {
    const { agentClient, customerId } = await agentSetup(server);
    for (const path of [`/customers/${customerId}`, "/agents", "/transactions"]) {
      const res = await agentClient.get<ErrorBody>(path);
      expect([res.status, res.body.code], path).toEqual([401, "UNAUTHORIZED"]);
    }
    const approve = await agentClient.post<ErrorBody>("/transactions/Transaction:x/approve");
    expect(approve.status).toBe(401);
  });

  test("a deleted agent's token is 401 UNAUTHORIZED at once", async () => {
    const { agent, agentClient } = await agentSetup(server);
    expect((await agentClient.get("/agents/me")).status).toBe(200);
    expect((await server.client.delete(`/agents/${agent.id}`)).status).toBe(204);
    const res = await agentClient.get<ErrorBody>("/agents/me");
    expect([res.status, res.body.code]).toEqual([401, "UNAUTHORIZED"]);
  });

  test("deleting the agent's customer makes its token 401 UNAUTHORIZED", async () => {
    const { agentClient, customerId } = await agentSetup(server);
    expect((await server.client.delete(`/customers/${customerId}`)).status).toBe(200);
    const res = await agentClient.get<ErrorBody>("/agents/me");
    expect([res.status, res.body.code]).toEqual([401, "UNAUTHORIZED"]);
  });

  test("an operation the policy's permissions do not allow is 403 FORBIDDEN, before the body is validated; reading its own accounts and actions needs none", async () => {
    const { agentClient } = await agentSetup(server, { policy: { permissions: [] } });
    for (const path of ["/agents/me/internal-accounts", "/agents/me/external-accounts", "/agents/me/actions"])
      expect((await agentClient.get(path)).status, path).toBe(200);
    for (const res of [
      await agentClient.get<ErrorBody>("/agents/me/transactions"),
      await agentClient.post<ErrorBody>("/agents/me/quotes", { not: "a quote" }),
      await agentClient.post<ErrorBody>("/agents/me/quotes/Quote:x/execute"),
      await agentClient.post<ErrorBody>("/agents/me/external-accounts", {}),
      await agentClient.post<ErrorBody>("/agents/me/transfer-out", {}),
      await agentClient.post<ErrorBody>("/agents/me/transfer-in", {}),
    ]) {
      expect([res.status, res.body.code]).toEqual([403, "FORBIDDEN"]);
    }
  });

  test("a paused agent may only read GET /agents/me (isPaused true); everything else is 403 FORBIDDEN until unpaused", async () => {
    const { agent, agentClient } = await agentSetup(server);
    expect((await server.client.patch(`/agents/${agent.id}`, { isPaused: true })).status).toBe(200);
    const me = await agentClient.get<{ isPaused: boolean }>("/agents/me");
    expect([me.status, me.body.isPaused]).toEqual([200, true]);
    for (const res of [
      await agentClient.get<ErrorBody>("/agents/me/internal-accounts"),
      await agentClient.post<ErrorBody>("/agents/me/quotes", { not: "a quote" }),
    ]) {
      expect([res.status, res.body.code]).toEqual([403, "FORBIDDEN"]);
    }
    expect((await server.client.patch(`/agents/${agent.id}`, { isPaused: false })).status).toBe(200);
    expect((await agentClient.get("/agents/me/internal-accounts")).status).toBe(200);
  });

  test("a policy change applies to the next request of the same token", async () => {
    const { agent, agentClient } = await agentSetup(server);
    expect((await agentClient.get("/agents/me/transactions")).status).toBe(200);
    const patched = await server.client.patch(`/agents/${agent.id}/policy`, { permissions: [] });
    expect(patched.status).toBe(200);
    expect((await agentClient.get("/agents/me/transactions")).status).toBe(403);
  });

  test("GET /agents/me/internal-accounts lists only the agent's customer's accounts", async () => {
    const { agentClient, accountId } = await agentSetup(server);
    await agentSetup(server);
    const res = await agentClient.get<{ data: { id: string; customerId: string }[]; totalCount: number }>(
      "/agents/me/internal-accounts",
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((a) => a.id)).toEqual([accountId]);
  });

  test("another customer's account in an agent quote is 404 ACCOUNT_NOT_FOUND like a nonexistent one", async () => {
    const mine = await agentSetup(server);
    const theirs = await agentSetup(server);
    const foreign = await mine.agentClient.post<ErrorBody>(
      "/agents/me/quotes",
      transfer(mine.accountId, theirs.accountId, 100),
    );
    const missing = await mine.agentClient.post<ErrorBody>(
      "/agents/me/quotes",
      transfer(mine.accountId, "InternalAccount:0190f1c8-1111-7000-8000-000000000abc", 100),
    );
    const fromTheirs = await mine.agentClient.post<ErrorBody>(
      "/agents/me/quotes",
      transfer(theirs.accountId, mine.accountId, 100),
    );
    for (const res of [foreign, missing, fromTheirs])
      expect([res.status, res.body.code]).toEqual([404, "ACCOUNT_NOT_FOUND"]);
    expect(foreign.body.reason.replace(theirs.accountId, "X")).toBe(
      missing.body.reason.replace("InternalAccount:0190f1c8-1111-7000-8000-000000000abc", "X"),
    );
  });

  test("another customer's quote and transaction are 404 QUOTE_NOT_FOUND / TRANSACTION_NOT_FOUND for an agent", async () => {
    const mine = await agentSetup(server);
    const theirs = await agentSetup(server);
    const other = await server.client.post<{ id: string }>("/customers", {
      customerType: "INDIVIDUAL",
      ...withEndUserTerms,
    });
    const otherAccount = (
      await server.client.get<{ data: { id: string }[] }>(
        `/customers/internal-accounts?customerId=${other.body.id}&currency=USD`,
      )
    ).body.data[0]?.id as string;
    const platformQuote = await server.client.post<{ id: string; transactionId: string }>(
      "/quotes",
      transfer(theirs.accountId, otherAccount, 100, { immediatelyExecute: true }),
    );
    expect(platformQuote.status, platformQuote.text).toBe(201);
    const readQuote = await mine.agentClient.get<ErrorBody>(`/agents/me/quotes/${platformQuote.body.id}`);
    expect([readQuote.status, readQuote.body.code]).toEqual([404, "QUOTE_NOT_FOUND"]);
    const execute = await mine.agentClient.post<ErrorBody>(
      `/agents/me/quotes/${platformQuote.body.id}/execute`,
    );
    expect([execute.status, execute.body.code]).toEqual([404, "QUOTE_NOT_FOUND"]);
    const readTx = await mine.agentClient.get<ErrorBody>(
      `/agents/me/transactions/${platformQuote.body.transactionId}`,
    );
    expect([readTx.status, readTx.body.code]).toEqual([404, "TRANSACTION_NOT_FOUND"]);
    const theirTx = await theirs.agentClient.get(
      `/agents/me/transactions/${platformQuote.body.transactionId}`,
    );
    expect(theirTx.status).toBe(200);
    const list = await mine.agentClient.get<{ totalCount: number }>("/agents/me/transactions");
    expect(list.body.totalCount).toBe(1); // its own funding only
  });

  test("the OpenAPI document declares AgentAuth (Bearer) on the agent routes and no credentials on redeem", async () => {
    const doc = (await server.client.get<OpenApi>("/openapi.json", { auth: null })).body;
    expect(doc.components.securitySchemes.AgentAuth).toMatchObject({ type: "http", scheme: "bearer" });
    const agentPaths = Object.keys(doc.paths).filter((p) => p.startsWith("/agents/me"));
    expect(agentPaths.length).toBeGreaterThanOrEqual(5);
    for (const path of agentPaths) {
      for (const op of Object.values(doc.paths[path] ?? {}))
        expect(op.security, path).toEqual([{ AgentAuth: [] }]);
    }
    expect(doc.paths["/agents/device-codes/{code}/redeem"]?.post?.security).toEqual([]);
    expect(doc.paths["/agents"]?.post?.security).toBeUndefined();
  });
});
