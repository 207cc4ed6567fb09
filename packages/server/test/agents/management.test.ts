import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer, testLogger } from "../harness.js";
import {
  type Agent,
  advanceClock,
  createAgent,
  customerWithAccount,
  type DeviceCode,
  type ErrorBody,
  policy,
  redeem,
} from "./helpers.js";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe("agent management (BasicAuth)", () => {
  test("POST /agents answers the hosted AgentCreateResponse: the Agent (not paused, not connected, no usage) and a device code", async () => {
    const { customerId } = await customerWithAccount(server.client, 0);
    const agentPolicy = {
      permissions: ["VIEW_TRANSACTIONS"],
      defaultExecutionMode: "AUTO",
      spendingLimits: { currency: "USD", perTransactionLimit: 1_000, dailyLimit: null },
    };
    const res = await server.client.post<{ agent: Agent; deviceCode: DeviceCode }>("/agents", {
      customerId,
      name: "Bill payer",
      policy: agentPolicy,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.agent).toMatchObject({
      customerId,
      name: "Bill payer",
      isPaused: false,
      isConnected: false,
      policy: agentPolicy,
      usage: { dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 },
    });
    expect(res.body.agent.id).toMatch(/^Agent:/);
    expect(res.body.deviceCode).toMatchObject({ agentId: res.body.agent.id, redeemed: false });
    expect(res.body.deviceCode.code).toMatch(/^[B-Z]{4}-[B-Z]{4}-[B-Z]{4}$/);
    const read = await server.client.get<Agent>(`/agents/${res.body.agent.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body.agent);
  });

  test("usage resets on the next UTC day and month of the platform's clock", async () => {
    const client = server.client.as(await server.newPlatform());
    const { customerId } = await customerWithAccount(client, 0);
    const agent = await createAgent(client, customerId);
    const now = new Date((await client.get<{ now: string }>("/sandbox/clock")).body.now);
    const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    expect(agent.usage).toMatchObject({
      dailyResetDate: tomorrow.toISOString().slice(0, 10),
      monthlyResetMonth: nextMonth.toISOString().slice(0, 7),
    });
  });

  test("an unknown, malformed or deleted customer is 404 CUSTOMER_NOT_FOUND / 409 CONFLICT", async () => {
    const body = { name: "x", policy: policy() };
    const unknown = await server.client.post<ErrorBody>("/agents", { ...body, customerId: "Customer:nope" });
    expect([unknown.status, unknown.body.code]).toEqual([404, "CUSTOMER_NOT_FOUND"]);
    const { customerId } = await customerWithAccount(server.client, 0);
    expect((await server.client.delete(`/customers/${customerId}`)).status).toBe(200);
    const deleted = await server.client.post<ErrorBody>("/agents", { ...body, customerId });
    expect([deleted.status, deleted.body.code]).toEqual([409, "CONFLICT"]);
  });

  test("a policy with an unknown permission, an unknown currency, a threshold in another currency or two rules for one account is 400 INVALID_INPUT", async () => {
    const { customerId } = await customerWithAccount(server.client, 0);
    const badPermission = await server.client.post<ErrorBody>("/agents", {
      customerId,
      name: "x",
      policy: policy({ permissions: ["FLY"] }),
    });
    expect(badPermission.status).toBe(400);
    expect(badPermission.body.details?.errors[0]?.field).toBe("policy.permissions[0]");
    const missing = await server.client.post<ErrorBody>("/agents", {
      customerId,
      name: "x",
      policy: { permissions: [] },
    });
    expect(missing.body.details?.errors.map((e) => e.field).sort()).toEqual([
      "policy.defaultExecutionMode",
      "policy.spendingLimits",
    ]);
    const inconsistent = await server.client.post<ErrorBody>("/agents", {
      customerId,
      name: "x",
      policy: policy({
        spendingLimits: { currency: "XYZ", perTransactionLimit: 1 },
        approvalThresholds: { currency: "EUR", amount: 1 },
        accountRestrictions: { accountRules: [{ accountId: "a" }, { accountId: "a" }] },
      }),
    });
    expect(inconsistent.status).toBe(400);
    expect(inconsistent.body.details?.errors.map((e) => e.field)).toEqual([
      "policy.spendingLimits.currency",
      "policy.approvalThresholds.currency",
      "policy.accountRestrictions.accountRules[1].accountId",
    ]);
  });

  test("agents are listed per platform, filtered by customer, isPaused and isConnected, paginated; deleted ones are gone", async () => {
    const other = server.client.as(await server.newPlatform());
    const { customerId } = await customerWithAccount(server.client, 0);
    const first = await createAgent(server.client, customerId);
    const second = await createAgent(server.client, customerId);
    const third = await createAgent(server.client, customerId);
    expect((await server.client.delete(`/agents/${third.id}`)).status).toBe(204);
    await redeem(server.client, first.deviceCode.code);
    await server.client.patch(`/agents/${second.id}`, { isPaused: true });
    type AgentPage = { data: Agent[]; hasMore: boolean; nextCursor?: string; totalCount: number };
    const page = await server.client.get<AgentPage>(`/agents?customerId=${customerId}&limit=1`);
    expect(page.body).toMatchObject({ hasMore: true, totalCount: 2 });
    expect(page.body.data.map((a) => a.id)).toEqual([second.id]);
    const next = await server.client.get<AgentPage>(
      `/agents?customerId=${customerId}&limit=1&cursor=${page.body.nextCursor}`,
    );
    expect(next.body.data.map((a) => a.id)).toEqual([first.id]);
    const ids = async (query: string) =>
      (await server.client.get<AgentPage>(`/agents?customerId=${customerId}&${query}`)).body.data.map(
        (a) => a.id,
      );
    expect(await ids("isPaused=true")).toEqual([second.id]);
    expect(await ids("isConnected=true")).toEqual([first.id]);
    expect(await ids("isConnected=false&isPaused=false")).toEqual([]);
    expect(await ids(`createdAfter=${encodeURIComponent(second.createdAt)}`)).toEqual([second.id]);
    expect(
      (await other.get<{ totalCount: number }>(`/agents?customerId=${customerId}`)).body.totalCount,
    ).toBe(0);
  });

  test("another platform's agent id, a malformed id and an unknown id are the same 404 NOT_FOUND", async () => {
    const { customerId } = await customerWithAccount(server.client, 0);
    const agent = await createAgent(server.client, customerId);
    const other = server.client.as(await server.newPlatform());
    for (const id of [agent.id, "Agent:0190f1c8-0000-7000-8000-000000000000", "nope"]) {
      const res = await other.get<ErrorBody>(`/agents/${id}`);
      expect([res.status, res.body.code]).toEqual([404, "NOT_FOUND"]);
    }
    const patched = await other.patch<ErrorBody>(`/agents/${agent.id}`, { name: "mine" });
    expect(patched.status).toBe(404);
    expect((await other.delete(`/agents/${agent.id}`)).status).toBe(404);
  });

  test("PATCH /agents/{agentId} renames or pauses the agent; its policy changes only through PATCH /agents/{agentId}/policy", async () => {
    const { customerId } = await customerWithAccount(server.client, 0);
    const agent = await createAgent(server.client, customerId);
    const res = await server.client.patch<Agent>(`/agents/${agent.id}`, { name: "Renamed", isPaused: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "Renamed", isPaused: true, policy: agent.policy });
    const withPolicy = await server.client.patch<ErrorBody>(`/agents/${agent.id}`, {
      policy: { permissions: [] },
    });
    expect(withPolicy.status).toBe(400);
    const empty = await server.client.patch<ErrorBody>(`/agents/${agent.id}`, {});
    expect(empty.status).toBe(400);
  });

  test("DELETE /agents/{agentId} → 204; the agent is then 404 everywhere and its token stops working", async () => {
    const { customerId } = await customerWithAccount(server.client, 0);
    const agent = await createAgent(server.client, customerId);
    const { accessToken } = (await redeem(server.client, agent.deviceCode.code)).body;
    const deleted = await server.client.delete(`/agents/${agent.id}`);
    expect([deleted.status, deleted.text]).toEqual([204, ""]);
    for (const res of [
      await server.client.get<ErrorBody>(`/agents/${agent.id}`),
      await server.client.delete<ErrorBody>(`/agents/${agent.id}`),
      await server.client.patch<ErrorBody>(`/agents/${agent.id}`, { name: "again" }),
      await server.client.patch<ErrorBody>(`/agents/${agent.id}/policy`, { permissions: [] }),
      await server.client.post<ErrorBody>(`/agents/${agent.id}/device-codes`),
    ]) {
      expect([res.status, res.body.code]).toEqual([404, "NOT_FOUND"]);
    }
    const bearer = { auth: null, headers: { authorization: `Bearer ${accessToken}` } };
    expect((await server.client.get("/agents/me", bearer)).status).toBe(401);
  });

  test("the invented POST /agents/{agentId}/revoke is gone (404)", async () => {
    const { customerId } = await customerWithAccount(server.client, 0);
    const agent = await createAgent(server.client, customerId);
    expect((await server.client.post(`/agents/${agent.id}/revoke`)).status).toBe(404);
  });

  test("managing agents needs the MANAGE permission (403 FORBIDDEN)", async () => {
    const token = await server.client.post<{ id: string; clientId: string; clientSecret: string }>(
      "/tokens",
      {
        name: "viewer",
        permissions: ["VIEW", "TRANSACT"],
      },
    );
    const viewer = server.client.as({
      platformId: server.platform.platformId,
      tokenId: token.body.id,
      ...token.body,
    });
    const { customerId } = await customerWithAccount(server.client, 0);
    const res = await viewer.post<ErrorBody>("/agents", { customerId, name: "x", policy: policy() });
    expect([res.status, res.body.code]).toEqual([403, "FORBIDDEN"]);
  });
});

describe("device codes", () => {
  test("redeeming a device code needs no credentials and answers the hosted {agentId, agentName, accessToken, policy}; the agent is then connected", async () => {
    const { customerId } = await customerWithAccount(server.client, 0);
    const agent = await createAgent(server.client, customerId);
    const res = await redeem(server.client, agent.deviceCode?.code as string);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["accessToken", "agentId", "agentName", "policy"]);
    expect(res.body).toMatchObject({ agentId: agent.id, agentName: agent.name, policy: agent.policy });
    expect(res.body.accessToken).toMatch(/^agt_[A-Za-z0-9_-]{43}$/);
    const read = await server.client.get<Agent>(`/agents/${agent.id}`);
    expect(read.body.isConnected).toBe(true);
  });

  test("a device code is compared without case or hyphens", async () => {
    const { customerId } = await customerWithAccount(server.client, 0);
    const agent = await createAgent(server.client, customerId);
    const code = String(agent.deviceCode?.code).toLowerCase().replace(/-/g, "");
    expect((await redeem(server.client, code)).status).toBe(200);
  });

  test("a device code is single use: the second redeem is 409 CONFLICT", async () => {
    const { customerId } = await customerWithAccount(server.client, 0);
    const agent = await createAgent(server.client, customerId);
    const code = agent.deviceCode?.code as string;
    expect((await redeem(server.client, code)).status).toBe(200);
    const again = await redeem(server.client, code);
    expect([again.status, (again.body as unknown as ErrorBody).code]).toEqual([409, "CONFLICT"]);
  });

  test("concurrent redeems of one code: exactly one gets a token", async () => {
    const { customerId } = await customerWithAccount(server.client, 0);
    const agent = await createAgent(server.client, customerId);
    const code = agent.deviceCode?.code as string;
    const results = await Promise.all([1, 2, 3, 4].map(() => redeem(server.client, code)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
  });

  test("an unknown device code is 404 NOT_FOUND", async () => {
    const res = await redeem(server.client, "BCDF-GHJK-LMNP");
    expect([res.status, (res.body as unknown as ErrorBody).code]).toEqual([404, "NOT_FOUND"]);
  });

  test("a device code expires 10 minutes after issue (404 NOT_FOUND)", async () => {
    const client = server.client.as(await server.newPlatform());
    const { customerId } = await customerWithAccount(client, 0);
    const agent = await createAgent(client, customerId);
    expect(Date.parse(agent.deviceCode?.expiresAt as string) - Date.parse(agent.createdAt)).toBe(600_000);
    await advanceClock(client, 600_000);
    const res = await redeem(client, agent.deviceCode?.code as string);
    expect([res.status, (res.body as unknown as ErrorBody).code]).toEqual([404, "NOT_FOUND"]);
    expect((res.body as unknown as ErrorBody).reason).toMatch(/expired/);
  });

  test("deleting an agent voids its unredeemed device codes", async () => {
    const { customerId } = await customerWithAccount(server.client, 0);
    const agent = await createAgent(server.client, customerId);
    expect((await server.client.delete(`/agents/${agent.id}`)).status).toBe(204);
    expect((await redeem(server.client, agent.deviceCode?.code as string)).status).toBe(404);
  });

  test("a new device code's token replaces the previous access token", async () => {
    const { customerId } = await customerWithAccount(server.client, 0);
    const agent = await createAgent(server.client, customerId);
    const first = await redeem(server.client, agent.deviceCode?.code as string);
    const code = await server.client.post<DeviceCode>(`/agents/${agent.id}/device-codes`);
    expect(code.status, code.text).toBe(201);
    expect(code.body).toMatchObject({ agentId: agent.id, redeemed: false });
    const second = await redeem(server.client, code.body.code);
    expect(second.status).toBe(200);
    const bearer = (token: string) => ({ auth: null, headers: { authorization: `Bearer ${token}` } });
    expect((await server.client.get("/agents/me", bearer(first.body.accessToken))).status).toBe(401);
    expect((await server.client.get("/agents/me", bearer(second.body.accessToken))).status).toBe(200);
  });

  test("a device code and its access token never reach the logs", async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    stream.on("data", (chunk: Buffer) => lines.push(chunk.toString("utf8")));
    const logged = await startServer({ logger: testLogger(stream) });
    try {
      const { customerId } = await customerWithAccount(logged.client, 0);
      const agent = await createAgent(logged.client, customerId);
      const code = agent.deviceCode?.code as string;
      const { accessToken } = (await redeem(logged.client, code)).body;
      const bearer = { auth: null, headers: { authorization: `Bearer ${accessToken}` } };
      expect((await logged.client.get("/agents/me", bearer)).status).toBe(200);
      expect(lines.join("")).toContain("/agents/me");
      expect(lines.join("")).not.toContain(code);
      expect(lines.join("")).not.toContain(accessToken);
    } finally {
      await logged.close();
    }
  });

  test("only hashes of device codes and access tokens are stored", async () => {
    const { customerId } = await customerWithAccount(server.client, 0);
    const agent = await createAgent(server.client, customerId);
    const code = agent.deviceCode?.code as string;
    const { accessToken } = (await redeem(server.client, code)).body;
    const stored = JSON.stringify([
      await server.db.query("SELECT * FROM agents WHERE id = $1", [agent.id]),
      await server.db.query("SELECT * FROM agent_device_codes WHERE agent_id = $1", [agent.id]),
    ]);
    expect(stored).not.toContain(code);
    expect(stored).not.toContain(code.replace(/-/g, ""));
    expect(stored).not.toContain(accessToken);
    expect(stored).not.toContain(accessToken.slice(4));
  });
});
