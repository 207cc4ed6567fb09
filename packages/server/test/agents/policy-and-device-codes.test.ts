import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import {
  type Agent,
  advanceClock,
  agentSetup,
  createAgent,
  customerWithAccount,
  type ErrorBody,
  redeem,
} from "./helpers.js";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe("PATCH /agents/{agentId}/policy", () => {
  test("the fields given replace the policy's, spendingLimits is merged field by field, the others stay", async () => {
    const { agent } = await agentSetup(server);
    const res = await server.client.patch<Agent>(`/agents/${agent.id}/policy`, {
      spendingLimits: { dailyLimit: 2_000 },
      approvalThresholds: { amount: 500 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.policy).toEqual({
      permissions: agent.policy.permissions,
      defaultExecutionMode: "APPROVAL_REQUIRED",
      spendingLimits: { currency: "USD", perTransactionLimit: 50_000, dailyLimit: 2_000 },
      approvalThresholds: { amount: 500 },
    });
    const read = await server.client.get<Agent>(`/agents/${agent.id}`);
    expect(read.body.policy).toEqual(res.body.policy);
  });

  test("the new policy binds the agent's next request: a removed permission is 403 FORBIDDEN", async () => {
    const { agent, agentClient } = await agentSetup(server);
    const res = await server.client.patch<Agent>(`/agents/${agent.id}/policy`, {
      permissions: ["CREATE_QUOTES"],
    });
    expect(res.status, res.text).toBe(200);
    const transactions = await agentClient.get<ErrorBody>("/agents/me/transactions");
    expect([transactions.status, transactions.body.code]).toEqual([403, "FORBIDDEN"]);
  });

  test("an empty body, an unknown field and an unknown currency are 400 INVALID_INPUT naming the field", async () => {
    const { agent } = await agentSetup(server);
    const empty = await server.client.patch<ErrorBody>(`/agents/${agent.id}/policy`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe("INVALID_INPUT");
    const unknown = await server.client.patch<ErrorBody>(`/agents/${agent.id}/policy`, { spend: 1 });
    expect(unknown.status).toBe(400);
    const currency = await server.client.patch<ErrorBody>(`/agents/${agent.id}/policy`, {
      spendingLimits: { currency: "XQQ" },
    });
    expect(currency.status).toBe(400);
    expect(currency.body.details?.errors.map((e) => e.field)).toEqual(["spendingLimits.currency"]);
  });

  test("another platform's agent id is 404 NOT_FOUND and its policy is unchanged", async () => {
    const { agent } = await agentSetup(server);
    const other = server.client.as(await server.newPlatform());
    const res = await other.patch<ErrorBody>(`/agents/${agent.id}/policy`, { defaultExecutionMode: "AUTO" });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("NOT_FOUND");
    const read = await server.client.get<Agent>(`/agents/${agent.id}`);
    expect(read.body.policy.defaultExecutionMode).toBe("APPROVAL_REQUIRED");
  });
});

describe("GET /agents/device-codes/{code}/status", () => {
  test("a fresh code is redeemed false, and true once the agent app redeemed it", async () => {
    const { customerId } = await customerWithAccount(server.client, 0);
    const agent = await createAgent(server.client, customerId);
    const code = agent.deviceCode?.code as string;
    const before = await server.client.get(`/agents/device-codes/${code}/status`);
    expect(before.status, before.text).toBe(200);
    expect(before.body).toEqual({ code, redeemed: false });
    expect((await redeem(server.client, code)).status).toBe(200);
    const after = await server.client.get(`/agents/device-codes/${code}/status`);
    expect(after.body).toEqual({ code, redeemed: true });
  });

  test("another platform's code, an unknown code and an expired unredeemed code are 404 NOT_FOUND", async () => {
    const client = server.client.as(await server.newPlatform());
    const { customerId } = await customerWithAccount(client, 0);
    const agent = await createAgent(client, customerId);
    const code = agent.deviceCode?.code as string;
    for (const [caller, value] of [
      [server.client, code],
      [client, "BCDF-GHJK-LMNP"],
    ] as const) {
      const res = await caller.get<ErrorBody>(`/agents/device-codes/${value}/status`);
      expect(res.status, value).toBe(404);
      expect(res.body.code).toBe("NOT_FOUND");
    }
    await advanceClock(client, 11 * 60 * 1000);
    const expired = await client.get<ErrorBody>(`/agents/device-codes/${code}/status`);
    expect(expired.status).toBe(404);
  });

  test("the status needs the platform's credentials (401 without them)", async () => {
    const { customerId } = await customerWithAccount(server.client, 0);
    const agent = await createAgent(server.client, customerId);
    const res = await server.client.get(`/agents/device-codes/${agent.deviceCode?.code}/status`, {
      auth: null,
    });
    expect(res.status).toBe(401);
  });
});
