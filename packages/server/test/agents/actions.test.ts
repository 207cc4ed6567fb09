import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { advanceClock, agentSetup, bankAccountInfo, type ErrorBody, transfer } from "./helpers.js";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

type Quote = { id: string; status: string; transactionId?: string };
type Action = {
  id: string;
  agentId: string;
  customerId: string;
  status: string;
  type: string;
  quote?: Quote;
  transaction?: { id: string; status: string; failureReason?: string };
  rejectionReason?: string;
  createdAt: string;
};
type ActionPage = { data: Action[]; hasMore: boolean; totalCount: number; nextCursor?: string };

async function balance(client: TestClient, accountId: string): Promise<number> {
  const res = await client.get<{ totalBalance: { amount: number } }>(`/internal-accounts/${accountId}`);
  return res.body.totalBalance.amount;
}

/** An agent (policy requires approval) with a funded account and its customer's bank account. */
async function payingAgent(client: TestClient = server.client, policy: Record<string, unknown> = {}) {
  const setup = await agentSetup(server, { client, policy });
  const external = await setup.agentClient.post<{ id: string }>("/agents/me/external-accounts", {
    currency: "USD",
    accountInfo: bankAccountInfo(),
  });
  expect(external.status, external.text).toBe(201);
  return { ...setup, externalId: external.body.id };
}

/** The agent quotes and executes a payout; returns the quote and the action listed for approval. */
async function pendingAction(agent: Awaited<ReturnType<typeof payingAgent>>, amount = 1_000) {
  const quote = await agent.agentClient.post<Quote>(
    "/agents/me/quotes",
    transfer(agent.accountId, agent.externalId, amount),
  );
  expect(quote.status, quote.text).toBe(201);
  const executed = await agent.agentClient.post<Action>(`/agents/me/quotes/${quote.body.id}/execute`);
  expect(executed.status, executed.text).toBe(200);
  const client = agent.agentClient.client;
  const listed = await client.get<ActionPage>(`/agents/approvals?agentId=${agent.agent.id}`);
  expect(listed.status, listed.text).toBe(200);
  const action = listed.body.data.find((a) => a.quote?.id === quote.body.id);
  expect(action, listed.text).toBeDefined();
  expect(executed.body).toEqual(action);
  const executedQuote = { ...executed.body.quote, transactionId: executed.body.transaction?.id } as Quote;
  return { quote: executedQuote, action: action as Action };
}

describe("GET /agents/approvals", () => {
  test("an executed agent quote awaiting approval is listed as an EXECUTE_QUOTE action in PENDING_APPROVAL with its quote and transaction", async () => {
    const agent = await payingAgent();
    const { quote, action } = await pendingAction(agent);
    expect(action).toMatchObject({
      agentId: agent.agent.id,
      customerId: agent.customerId,
      status: "PENDING_APPROVAL",
      type: "EXECUTE_QUOTE",
      quote: { id: quote.id, status: "PENDING_AUTHORIZATION" },
      transaction: { id: quote.transactionId, status: "PENDING" },
    });
    expect(action.id).toMatch(/^AgentAction:[0-9a-f-]{36}$/);
  });

  test("an agent whose policy needs no approval makes an APPROVED action that is not listed", async () => {
    const agent = await payingAgent(server.client, { defaultExecutionMode: "AUTO" });
    const quote = await agent.agentClient.post<Quote>(
      "/agents/me/quotes",
      transfer(agent.accountId, agent.externalId, 1_000),
    );
    const executed = await agent.agentClient.post<Action>(`/agents/me/quotes/${quote.body.id}/execute`);
    expect(executed.status, executed.text).toBe(200);
    expect(executed.body).toMatchObject({ type: "EXECUTE_QUOTE", status: "APPROVED" });
    const listed = await server.client.get<ActionPage>(`/agents/approvals?agentId=${agent.agent.id}`);
    expect(listed.body).toMatchObject({ data: [], hasMore: false, totalCount: 0 });
  });

  test("filters by agentId and customerId, pages with a cursor, and lists only the caller's platform", async () => {
    const client = server.client.as(await server.newPlatform());
    const first = await payingAgent(client);
    const second = await payingAgent(client);
    await pendingAction(first);
    await pendingAction(first);
    await pendingAction(second);
    const all = await client.get<ActionPage>("/agents/approvals");
    expect(all.body.totalCount).toBe(3);
    const byCustomer = await client.get<ActionPage>(`/agents/approvals?customerId=${second.customerId}`);
    expect(byCustomer.body.data.map((a) => a.agentId)).toEqual([second.agent.id]);
    const page = await client.get<ActionPage>(`/agents/approvals?agentId=${first.agent.id}&limit=1`);
    expect(page.body).toMatchObject({ hasMore: true, totalCount: 2 });
    const next = await client.get<ActionPage>(
      `/agents/approvals?agentId=${first.agent.id}&limit=1&cursor=${page.body.nextCursor}`,
    );
    expect(next.body.data[0]?.id).not.toBe(page.body.data[0]?.id);
    const foreign = await server.client.get<ActionPage>(`/agents/approvals?agentId=${first.agent.id}`);
    expect(foreign.body.totalCount).toBe(0);
  });

  test("startDate and endDate bound the creation time; sortOrder asc lists oldest first", async () => {
    const client = server.client.as(await server.newPlatform());
    const agent = await payingAgent(client);
    const { action: older } = await pendingAction(agent);
    const { action: newer } = await pendingAction(agent);
    const asc = await client.get<ActionPage>("/agents/approvals?sortOrder=asc");
    expect(asc.body.data.map((a) => a.id)).toEqual([older.id, newer.id]);
    const after = await client.get<ActionPage>(
      `/agents/approvals?startDate=${encodeURIComponent(new Date(Date.parse(newer.createdAt) + 1).toISOString())}`,
    );
    expect(after.body.totalCount).toBe(0);
    const before = await client.get<ActionPage>(
      `/agents/approvals?endDate=${encodeURIComponent(older.createdAt)}`,
    );
    expect(before.body.data.map((a) => a.id)).toContain(older.id);
  });

  test("a malformed startDate is 400 INVALID_INPUT naming the field", async () => {
    const res = await server.client.get<ErrorBody>("/agents/approvals?startDate=yesterday");
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors.map((e) => e.field)).toContain("startDate");
  });
});

describe("POST /agents/{agentId}/actions/{actionId}/approve and /reject", () => {
  test("approving an action executes its payment: action APPROVED, transaction PROCESSING, money moves", async () => {
    const agent = await payingAgent();
    const { action } = await pendingAction(agent, 1_000);
    const res = await server.client.post<Action>(`/agents/${agent.agent.id}/actions/${action.id}/approve`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: action.id,
      status: "APPROVED",
      transaction: { id: action.transaction?.id, status: "PROCESSING" },
      quote: { status: "PROCESSING" },
    });
    expect(await balance(server.client, agent.accountId)).toBe(99_000);
  });

  test("approving the payment with POST /transactions/{id}/approve makes its action APPROVED too", async () => {
    const agent = await payingAgent();
    const { action } = await pendingAction(agent);
    const approved = await server.client.post(`/transactions/${action.transaction?.id}/approve`);
    expect(approved.status, approved.text).toBe(200);
    const again = await server.client.post<ErrorBody>(
      `/agents/${agent.agent.id}/actions/${action.id}/approve`,
    );
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("CONFLICT");
    const listed = await server.client.get<ActionPage>(`/agents/approvals?agentId=${agent.agent.id}`);
    expect(listed.body.totalCount).toBe(0);
  });

  test("rejecting an action makes it REJECTED with the reason, its payment and quote FAILED, and moves no money", async () => {
    const agent = await payingAgent();
    const { action } = await pendingAction(agent);
    const res = await server.client.post<Action>(`/agents/${agent.agent.id}/actions/${action.id}/reject`, {
      reason: "Over the customer's risk limit.",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      status: "REJECTED",
      rejectionReason: "Over the customer's risk limit.",
      transaction: { status: "FAILED" },
      quote: { status: "FAILED" },
    });
    expect(await balance(server.client, agent.accountId)).toBe(100_000);
    const approve = await server.client.post<ErrorBody>(`/transactions/${action.transaction?.id}/approve`);
    expect(approve.status).toBe(409);
    expect(approve.body.code).toBe("TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL");
  });

  test("POST /transactions/{id}/reject fails the payment and its quote, makes its action REJECTED with the reason, moves no money", async () => {
    const agent = await payingAgent();
    const { action } = await pendingAction(agent);
    const res = await server.client.post<{ id: string; status: string }>(
      `/transactions/${action.transaction?.id}/reject`,
      { reason: "RESTRICTED_JURISDICTION" },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: action.transaction?.id, status: "FAILED" });
    const read = await agent.agentClient.get<Action>(`/agents/me/actions/${action.id}`);
    expect(read.body).toMatchObject({
      status: "REJECTED",
      rejectionReason: "RESTRICTED_JURISDICTION",
      quote: { status: "FAILED" },
    });
    expect(await balance(server.client, agent.accountId)).toBe(100_000);
    for (const verb of ["approve", "reject"]) {
      const again = await server.client.post<ErrorBody>(`/transactions/${action.transaction?.id}/${verb}`);
      expect(again.status, verb).toBe(409);
      expect(again.body.code).toBe("TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL");
    }
  });

  test("POST /transactions/{id}/reject of another platform's or an unknown transaction -> 404 TRANSACTION_NOT_FOUND", async () => {
    const agent = await payingAgent();
    const { action } = await pendingAction(agent);
    const foreign = server.client.as(await server.newPlatform());
    for (const [client, id] of [
      [foreign, action.transaction?.id],
      [server.client, "Transaction:019542f5-b3e7-7d02-8000-000000000001"],
    ] as const) {
      const res = await client.post<ErrorBody>(`/transactions/${id}/reject`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("TRANSACTION_NOT_FOUND");
    }
  });

  test("reject takes no body; a rejected action cannot be approved or rejected again (409 CONFLICT)", async () => {
    const agent = await payingAgent();
    const { action } = await pendingAction(agent);
    const rejected = await server.client.post<Action>(
      `/agents/${agent.agent.id}/actions/${action.id}/reject`,
    );
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body.rejectionReason).toBeUndefined();
    for (const verb of ["approve", "reject"]) {
      const res = await server.client.post<ErrorBody>(
        `/agents/${agent.agent.id}/actions/${action.id}/${verb}`,
      );
      expect(res.status, verb).toBe(409);
      expect(res.body.code).toBe("CONFLICT");
    }
  });

  test("an unknown field in the reject body is 400 INVALID_INPUT", async () => {
    const agent = await payingAgent();
    const { action } = await pendingAction(agent);
    const res = await server.client.post<ErrorBody>(`/agents/${agent.agent.id}/actions/${action.id}/reject`, {
      why: "no",
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
  });

  test("an action whose quote expired before approval becomes FAILED and approving it is 400 QUOTE_EXPIRED", async () => {
    // A server whose job runner is stopped: the expiry job must not get there before the approval does.
    const quiet = await startServer();
    await quiet.jobs.stop();
    try {
      const setup = await agentSetup(quiet);
      const external = await setup.agentClient.post<{ id: string }>("/agents/me/external-accounts", {
        currency: "USD",
        accountInfo: bankAccountInfo(),
      });
      const agent = { ...setup, externalId: external.body.id };
      const { action } = await pendingAction(agent);
      await advanceClock(quiet.client, 10 * 60 * 1000);
      const res = await quiet.client.post<ErrorBody>(
        `/agents/${agent.agent.id}/actions/${action.id}/approve`,
      );
      expect([res.status, res.body.code], res.text).toEqual([400, "QUOTE_EXPIRED"]);
      const read = await agent.agentClient.get<Action>(`/agents/me/actions/${action.id}`);
      expect(read.body).toMatchObject({ status: "FAILED", transaction: { status: "EXPIRED" } });
    } finally {
      await quiet.close();
    }
  });

  test("another platform's action, another agent's action, a malformed and an unknown action id are the same 404 NOT_FOUND", async () => {
    const agent = await payingAgent();
    const sibling = await payingAgent();
    const { action } = await pendingAction(agent);
    const other = server.client.as(await server.newPlatform());
    const cases: [TestClient, string, string][] = [
      [other, agent.agent.id, action.id],
      [server.client, sibling.agent.id, action.id],
      [server.client, agent.agent.id, "AgentAction:nope"],
      [server.client, agent.agent.id, "AgentAction:01900000-0000-7000-8000-000000000000"],
    ];
    for (const [client, agentId, actionId] of cases) {
      for (const verb of ["approve", "reject"]) {
        const res = await client.post<ErrorBody>(`/agents/${agentId}/actions/${actionId}/${verb}`);
        expect(res.status, `${verb} ${agentId} ${actionId}`).toBe(404);
        expect(res.body.code).toBe("NOT_FOUND");
      }
    }
    const still = await server.client.get<ActionPage>(`/agents/approvals?agentId=${agent.agent.id}`);
    expect(still.body.data[0]?.status).toBe("PENDING_APPROVAL");
  });
});

describe("GET /agents/me/actions and /agents/me/actions/{actionId}", () => {
  test("the agent lists and reads its own actions, filtered by status", async () => {
    const agent = await payingAgent();
    const { action: pending } = await pendingAction(agent);
    const { action: rejected } = await pendingAction(agent);
    await server.client.post(`/agents/${agent.agent.id}/actions/${rejected.id}/reject`);
    const all = await agent.agentClient.get<ActionPage>("/agents/me/actions");
    expect(all.status, all.text).toBe(200);
    expect(all.body.data.map((a) => [a.id, a.status])).toEqual([
      [rejected.id, "REJECTED"],
      [pending.id, "PENDING_APPROVAL"],
    ]);
    const filtered = await agent.agentClient.get<ActionPage>("/agents/me/actions?status=PENDING_APPROVAL");
    expect(filtered.body.data.map((a) => a.id)).toEqual([pending.id]);
    const one = await agent.agentClient.get<Action>(`/agents/me/actions/${pending.id}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({
      id: pending.id,
      type: "EXECUTE_QUOTE",
      quote: { id: pending.quote?.id },
    });
  });

  test("an unapproved action whose quote expired reads FAILED", async () => {
    const client = server.client.as(await server.newPlatform());
    const agent = await payingAgent(client);
    const { action } = await pendingAction(agent);
    await advanceClock(client, 10 * 60 * 1000);
    await client.post(`/transactions/${action.transaction?.id}/approve`);
    const read = await agent.agentClient.get<Action>(`/agents/me/actions/${action.id}`);
    expect(read.body).toMatchObject({ status: "FAILED", transaction: { status: "EXPIRED" } });
  });

  test("another agent's action, even of the same customer's platform, a malformed and an unknown id are 404 NOT_FOUND", async () => {
    const agent = await payingAgent();
    const other = await payingAgent();
    const { action } = await pendingAction(other);
    for (const id of [action.id, "AgentAction:x", "AgentAction:01900000-0000-7000-8000-000000000000"]) {
      const res = await agent.agentClient.get<ErrorBody>(`/agents/me/actions/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.code).toBe("NOT_FOUND");
    }
    const listed = await agent.agentClient.get<ActionPage>("/agents/me/actions");
    expect(listed.body.totalCount).toBe(0);
  });

  test("an agent reads its own actions whatever its permissions", async () => {
    const agent = await agentSetup(server, { policy: { permissions: [] } });
    const res = await agent.agentClient.get<ActionPage>("/agents/me/actions");
    expect([res.status, res.body.totalCount]).toEqual([200, 0]);
  });

  test("the platform's credentials are not an agent's: Basic auth on /agents/me/actions is 401", async () => {
    const res = await server.client.get("/agents/me/actions");
    expect(res.status).toBe(401);
  });
});

describe("POST /agents/me/transfer-out", () => {
  const body = (agent: Awaited<ReturnType<typeof payingAgent>>, amount: number) => ({
    source: { accountId: agent.accountId },
    destination: { accountId: agent.externalId },
    amount,
  });

  test("a transfer-out waiting for approval answers 201 with a TRANSFER_OUT action in PENDING_APPROVAL and moves no money", async () => {
    const agent = await payingAgent();
    const res = await agent.agentClient.post<Action & { transferDetails: unknown }>(
      "/agents/me/transfer-out",
      body(agent, 1_500),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      type: "TRANSFER_OUT",
      status: "PENDING_APPROVAL",
      transferDetails: {
        amount: 1_500,
        currency: "USD",
        sourceAccountId: agent.accountId,
        destinationAccountId: agent.externalId,
      },
      transaction: { status: "PENDING" },
    });
    expect(await balance(server.client, agent.accountId)).toBe(100_000);
    const approved = await server.client.post<Action>(
      `/agents/${agent.agent.id}/actions/${res.body.id}/approve`,
    );
    expect(approved.body).toMatchObject({ status: "APPROVED", transaction: { status: "PROCESSING" } });
    expect(await balance(server.client, agent.accountId)).toBeLessThan(100_000);
  });

  test("with defaultExecutionMode AUTO the transfer-out executes at once: APPROVED, PROCESSING", async () => {
    const agent = await payingAgent(server.client, { defaultExecutionMode: "AUTO" });
    const res = await agent.agentClient.post<Action>("/agents/me/transfer-out", body(agent, 1_000));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: "APPROVED", transaction: { status: "PROCESSING" } });
  });

  test("an amount above the policy maximum is 400 TRANSACTION_SIZE_LIMIT_EXCEEDED and nothing is recorded", async () => {
    const agent = await payingAgent();
    const res = await agent.agentClient.post<ErrorBody>("/agents/me/transfer-out", body(agent, 50_001));
    expect([res.status, res.body.code]).toEqual([400, "TRANSACTION_SIZE_LIMIT_EXCEEDED"]);
    expect((await agent.agentClient.get<ActionPage>("/agents/me/actions")).body.totalCount).toBe(0);
  });

  test("another customer's external account or internal account is 404 ACCOUNT_NOT_FOUND", async () => {
    const agent = await payingAgent();
    const other = await payingAgent();
    for (const payload of [
      { ...body(agent, 1_000), destination: { accountId: other.externalId } },
      { ...body(agent, 1_000), source: { accountId: other.accountId } },
    ]) {
      const res = await agent.agentClient.post<ErrorBody>("/agents/me/transfer-out", payload);
      expect([res.status, res.body.code], res.text).toEqual([404, "ACCOUNT_NOT_FOUND"]);
    }
  });

  test("an internal account as destination, a missing amount and an unknown field are 400 INVALID_INPUT naming the field", async () => {
    const agent = await payingAgent();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...body(agent, 1_000), destination: { accountId: agent.accountId } }, "destination.accountId"],
      [{ source: { accountId: agent.accountId }, destination: { accountId: agent.externalId } }, "amount"],
    ];
    for (const [payload, field] of cases) {
      const res = await agent.agentClient.post<ErrorBody>("/agents/me/transfer-out", payload);
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe("INVALID_INPUT");
      expect(res.body.details?.errors.map((e) => e.field)).toContain(field);
    }
    const extra = await agent.agentClient.post<ErrorBody>("/agents/me/transfer-out", {
      ...body(agent, 1),
      x: 1,
    });
    expect([extra.status, extra.body.code]).toEqual([400, "INVALID_INPUT"]);
  });

  test("an agent without CREATE_TRANSFERS is 403 FORBIDDEN", async () => {
    const agent = await payingAgent();
    await server.client.patch(`/agents/${agent.agent.id}/policy`, { permissions: ["CREATE_QUOTES"] });
    const res = await agent.agentClient.post<ErrorBody>("/agents/me/transfer-out", body(agent, 1_000));
    expect([res.status, res.body.code]).toEqual([403, "FORBIDDEN"]);
  });
});

describe("actions follow their payment", () => {
  test("a pending agent payment cancelled with POST /transactions/{id}/cancel reads FAILED and is no longer listed for approval", async () => {
    const agent = await payingAgent();
    const { action } = await pendingAction(agent);
    const cancelled = await server.client.post(`/transactions/${action.transaction?.id}/cancel`, {});
    expect(cancelled.status, cancelled.text).toBe(200);
    const listed = await server.client.get<ActionPage>(`/agents/approvals?agentId=${agent.agent.id}`);
    expect(listed.body.totalCount).toBe(0);
    const read = await agent.agentClient.get<Action>(`/agents/me/actions/${action.id}`);
    expect(read.body).toMatchObject({ status: "FAILED", transaction: { status: "FAILED" } });
    const approve = await server.client.post<ErrorBody>(
      `/agents/${agent.agent.id}/actions/${action.id}/approve`,
    );
    expect([approve.status, approve.body.code]).toEqual([409, "CONFLICT"]);
  });
});

describe("POST /agents/me/transfer-in", () => {
  const body = (agent: Awaited<ReturnType<typeof payingAgent>>, amount: number) => ({
    source: { accountId: agent.externalId },
    destination: { accountId: agent.accountId },
    amount,
  });

  test("AUTO: the money moves and the APPROVED TRANSFER_IN action is recorded with it (201)", async () => {
    const agent = await payingAgent(server.client, { defaultExecutionMode: "AUTO" });
    const res = await agent.agentClient.post<Action & { transferDetails: unknown }>(
      "/agents/me/transfer-in",
      body(agent, 2_500),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      type: "TRANSFER_IN",
      status: "APPROVED",
      transferDetails: {
        amount: 2_500,
        currency: "USD",
        sourceAccountId: agent.externalId,
        destinationAccountId: agent.accountId,
      },
      transaction: { status: "COMPLETED" },
    });
    expect(await balance(server.client, agent.accountId)).toBe(102_500);
    const me = await agent.agentClient.get<{ usage: { dailySpend: number } }>("/agents/me");
    expect(me.body.usage.dailySpend).toBe(2_500);
  });

  test("a transfer the payments domain refuses records no action (one transaction for both)", async () => {
    const agent = await payingAgent(server.client, { defaultExecutionMode: "AUTO" });
    const failing = await agent.agentClient.post<{ id: string }>("/agents/me/external-accounts", {
      currency: "USD",
      accountInfo: bankAccountInfo("1234567002"),
    });
    expect(failing.status, failing.text).toBe(201);
    const res = await agent.agentClient.post<ErrorBody>("/agents/me/transfer-in", {
      ...body(agent, 1_000),
      source: { accountId: failing.body.id },
    });
    expect([res.status, res.body.code]).toEqual([400, "INSUFFICIENT_FUNDS"]);
    expect((await agent.agentClient.get<ActionPage>("/agents/me/actions")).body.totalCount).toBe(0);
    expect(await balance(server.client, agent.accountId)).toBe(100_000);
  });

  test("APPROVAL_REQUIRED: nothing moves until the platform approves; then the money moves and the action is APPROVED", async () => {
    const agent = await payingAgent();
    const res = await agent.agentClient.post<Action>("/agents/me/transfer-in", body(agent, 1_000));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ type: "TRANSFER_IN", status: "PENDING_APPROVAL" });
    expect(res.body.transaction).toBeUndefined();
    expect(await balance(server.client, agent.accountId)).toBe(100_000);
    const approved = await server.client.post<Action>(
      `/agents/${agent.agent.id}/actions/${res.body.id}/approve`,
    );
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: "APPROVED", transaction: { status: "COMPLETED" } });
    expect(await balance(server.client, agent.accountId)).toBe(101_000);
    const again = await server.client.post<ErrorBody>(
      `/agents/${agent.agent.id}/actions/${res.body.id}/approve`,
    );
    expect([again.status, again.body.code]).toEqual([409, "CONFLICT"]);
  });

  test("a waiting transfer-in rejected by the platform is REJECTED with its reason and moves nothing", async () => {
    const agent = await payingAgent();
    const res = await agent.agentClient.post<Action>("/agents/me/transfer-in", body(agent, 1_000));
    const rejected = await server.client.post<Action>(
      `/agents/${agent.agent.id}/actions/${res.body.id}/reject`,
      {
        reason: "not today",
      },
    );
    expect(rejected.body).toMatchObject({ status: "REJECTED", rejectionReason: "not today" });
    expect(await balance(server.client, agent.accountId)).toBe(100_000);
  });

  test("an internal account as source is 400 on source.accountId; another customer's account is 404 ACCOUNT_NOT_FOUND; above the limit 400 TRANSACTION_SIZE_LIMIT_EXCEEDED", async () => {
    const agent = await payingAgent();
    const other = await payingAgent();
    const internal = await agent.agentClient.post<ErrorBody>("/agents/me/transfer-in", {
      ...body(agent, 1_000),
      source: { accountId: agent.accountId },
    });
    expect(internal.body.details?.errors.map((e) => e.field)).toEqual(["source.accountId"]);
    const foreign = await agent.agentClient.post<ErrorBody>("/agents/me/transfer-in", {
      ...body(agent, 1_000),
      destination: { accountId: other.accountId },
    });
    expect([foreign.status, foreign.body.code]).toEqual([404, "ACCOUNT_NOT_FOUND"]);
    const big = await agent.agentClient.post<ErrorBody>("/agents/me/transfer-in", body(agent, 50_001));
    expect([big.status, big.body.code]).toEqual([400, "TRANSACTION_SIZE_LIMIT_EXCEEDED"]);
  });
});

describe("AGENT_ACTION.PENDING_APPROVAL", () => {
  test("an action waiting for approval fires AGENT_ACTION.PENDING_APPROVAL carrying the AgentAction, in its transaction", async () => {
    const agent = await payingAgent();
    const { action } = await pendingAction(agent);
    const rows = await server.db.query<{ body: string }>(
      "SELECT body FROM webhook_events WHERE type = 'AGENT_ACTION.PENDING_APPROVAL' AND body LIKE $1",
      [`%"id":"${action.id}"%`],
    );
    expect(rows).toHaveLength(1);
    const event = JSON.parse(rows[0]?.body as string);
    expect(event).toMatchObject({
      type: "AGENT_ACTION.PENDING_APPROVAL",
      data: { id: action.id, status: "PENDING_APPROVAL", type: "EXECUTE_QUOTE" },
    });
  });

  test("an action approved at once fires no AGENT_ACTION event", async () => {
    const agent = await payingAgent(server.client, { defaultExecutionMode: "AUTO" });
    const res = await agent.agentClient.post<Action>("/agents/me/transfer-out", {
      source: { accountId: agent.accountId },
      destination: { accountId: agent.externalId },
      amount: 1_000,
    });
    expect(res.body.status).toBe("APPROVED");
    const rows = await server.db.query("SELECT 1 FROM webhook_events WHERE body LIKE $1", [
      `%"id":"${res.body.id}"%`,
    ]);
    expect(rows).toHaveLength(0);
  });
});
