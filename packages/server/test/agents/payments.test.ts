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

type Quote = { id: string; status: string; transactionId?: string; totalSendingAmount: number };
type AgentAction = {
  id: string;
  type: string;
  status: string;
  quote?: Quote;
  transaction?: { id: string; status: string };
};
type Transaction = {
  id: string;
  type: string;
  status: string;
  pendingReason?: string;
  failureReason?: string;
  quoteId?: string;
  createdAt: string;
  sentAmount?: { amount: number };
};

async function balance(client: TestClient, accountId: string): Promise<number> {
  const res = await client.get<{ totalBalance: { amount: number } }>(`/internal-accounts/${accountId}`);
  return res.body.totalBalance.amount;
}

async function events(transactionId: string, target: TestServer = server): Promise<string[]> {
  const rows = await target.db.query<{ type: string }>(
    "SELECT type FROM webhook_events WHERE body LIKE $1 AND type LIKE 'OUTGOING_PAYMENT.%' ORDER BY created_at, type",
    [`%"id":"${transactionId}"%`],
  );
  return rows.map((r) => r.type);
}

/** An agent with a funded account and one of its customer's bank accounts, added by the agent itself. */
async function payingAgent(
  options: { client?: TestClient; policy?: Record<string, unknown>; funds?: number } = {},
  target: TestServer = server,
) {
  const setup = await agentSetup(target, options);
  const external = await setup.agentClient.post<{ id: string }>("/agents/me/external-accounts", {
    currency: "USD",
    accountInfo: bankAccountInfo(),
  });
  expect(external.status, external.text).toBe(201);
  return { ...setup, externalId: external.body.id };
}

/** The agent quotes a payout of `amount` to its bank account and executes it. */
async function agentPayout(agent: Awaited<ReturnType<typeof payingAgent>>, amount: number) {
  const quote = await agent.agentClient.post<Quote>(
    "/agents/me/quotes",
    transfer(agent.accountId, agent.externalId, amount),
  );
  expect(quote.status, quote.text).toBe(201);
  const res = await agent.agentClient.post<AgentAction>(`/agents/me/quotes/${quote.body.id}/execute`);
  // The execute answers the EXECUTE_QUOTE AgentAction; the tests below read its quote and transaction.
  const executed = {
    ...res,
    action: res.body,
    body: {
      id: res.body.quote?.id,
      status: res.body.quote?.status,
      transactionId: res.body.transaction?.id,
      code: (res.body as unknown as ErrorBody).code,
    },
  };
  return { quote: quote.body, executed };
}

describe("agent external accounts", () => {
  test("POST /agents/me/external-accounts creates a USD_ACCOUNT of the agent's customer", async () => {
    const { agentClient, customerId } = await agentSetup(server);
    const res = await agentClient.post<{ id: string; customerId: string; status: string }>(
      "/agents/me/external-accounts",
      {
        currency: "USD",
        accountInfo: bankAccountInfo("5550001234"),
      },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ customerId, status: "ACTIVE" });
    const read = await server.client.get<{ customerId: string }>(
      `/customers/external-accounts/${res.body.id}`,
    );
    expect(read.body.customerId).toBe(customerId);
    const listed = await agentClient.get<{ data: { id: string }[] }>("/agents/me/external-accounts");
    expect(listed.body.data.map((a) => a.id)).toEqual([res.body.id]);
  });

  test("bankAccountType is required for USD_ACCOUNT, validated as on POST /customers/external-accounts", async () => {
    const { agentClient, customerId } = await agentSetup(server);
    const { bankAccountType: _, ...info } = bankAccountInfo("5550001235");
    const agentRes = await agentClient.post<ErrorBody>("/agents/me/external-accounts", {
      currency: "USD",
      accountInfo: info,
    });
    const platformRes = await server.client.post<ErrorBody>("/customers/external-accounts", {
      customerId,
      currency: "USD",
      accountInfo: info,
    });
    expect(agentRes.status).toBe(400);
    expect(agentRes.body).toEqual(platformRes.body);
    expect(agentRes.body.details?.errors.map((e) => e.field)).toEqual(["accountInfo.bankAccountType"]);
  });

  test("an agent cannot name a customer: customerId is an unknown field (400 INVALID_INPUT)", async () => {
    const other = await agentSetup(server);
    const { agentClient } = await agentSetup(server);
    const res = await agentClient.post<ErrorBody>("/agents/me/external-accounts", {
      customerId: other.customerId,
      currency: "USD",
      accountInfo: bankAccountInfo("5550001236"),
    });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["customerId"]);
  });

  test("an equivalent account is 409 DUPLICATE_EXTERNAL_ACCOUNT, as for the platform", async () => {
    const { agentClient } = await agentSetup(server);
    const body = { currency: "USD", accountInfo: bankAccountInfo("5550001237") };
    expect((await agentClient.post("/agents/me/external-accounts", body)).status).toBe(201);
    const again = await agentClient.post<ErrorBody>("/agents/me/external-accounts", body);
    expect([again.status, again.body.code]).toEqual([409, "DUPLICATE_EXTERNAL_ACCOUNT"]);
  });
});

describe("agent payments wait for platform approval", () => {
  test("an executed agent quote makes a PENDING OUTGOING transaction (PLATFORM_APPROVAL_REQUIRED) and moves no money", async () => {
    const agent = await payingAgent();
    const { quote, executed } = await agentPayout(agent, 1_000);
    expect(executed.status, executed.text).toBe(200);
    expect(executed.action).toMatchObject({ type: "EXECUTE_QUOTE", status: "PENDING_APPROVAL" });
    expect(executed.body.status).toBe("PENDING_AUTHORIZATION");
    const transactionId = executed.body.transactionId as string;
    const tx = await server.client.get<Transaction>(`/transactions/${transactionId}`);
    expect(tx.body).toMatchObject({
      type: "OUTGOING",
      status: "PENDING",
      pendingReason: "PLATFORM_APPROVAL_REQUIRED",
      quoteId: quote.id,
      sentAmount: { amount: 1_000 },
    });
    expect(await balance(server.client, agent.accountId)).toBe(100_000);
    expect(await events(transactionId)).toEqual(["OUTGOING_PAYMENT.PENDING"]);
    const mine = await agent.agentClient.get<{ data: Transaction[] }>(
      "/agents/me/transactions?type=OUTGOING",
    );
    expect(mine.body.data.map((t) => [t.id, t.status])).toEqual([[transactionId, "PENDING"]]);
  });

  test("approving executes it through the quote path: same transaction id and createdAt, money moves, PROCESSING", async () => {
    const agent = await payingAgent();
    const { executed } = await agentPayout(agent, 1_000);
    const transactionId = executed.body.transactionId as string;
    const pending = await server.client.get<Transaction>(`/transactions/${transactionId}`);
    const approved = await server.client.post<Transaction>(`/transactions/${transactionId}/approve`);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({
      id: transactionId,
      status: "PROCESSING",
      createdAt: pending.body.createdAt,
    });
    expect(approved.body.pendingReason).toBeUndefined();
    expect(await balance(server.client, agent.accountId)).toBe(99_000);
    const quote = await agent.agentClient.get<Quote>(`/agents/me/quotes/${executed.body.id}`);
    expect(quote.body).toMatchObject({ status: "PROCESSING", transactionId });
    expect(await events(transactionId)).toEqual(["OUTGOING_PAYMENT.PENDING", "OUTGOING_PAYMENT.PROCESSING"]);
    const changes = await server.db.query("SELECT * FROM balance_changes WHERE transaction_id = $1", [
      transactionId,
    ]);
    expect(changes).toHaveLength(1);
  });

  test("approving twice is 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL", async () => {
    const agent = await payingAgent();
    const { executed } = await agentPayout(agent, 1_000);
    const path = `/transactions/${executed.body.transactionId}/approve`;
    expect((await server.client.post(path)).status).toBe(200);
    const again = await server.client.post<ErrorBody>(path);
    expect([again.status, again.body.code]).toEqual([409, "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL"]);
    expect(await balance(server.client, agent.accountId)).toBe(99_000);
  });

  test("approving a transaction that is not an agent payment awaiting approval is 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL", async () => {
    const agent = await payingAgent();
    const platformPayout = await server.client.post<Quote>(
      "/quotes",
      transfer(agent.accountId, agent.externalId, 500, { immediatelyExecute: true }),
    );
    expect(platformPayout.status, platformPayout.text).toBe(201);
    const res = await server.client.post<ErrorBody>(
      `/transactions/${platformPayout.body.transactionId}/approve`,
    );
    expect([res.status, res.body.code]).toEqual([409, "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL"]);
  });

  test("approving an unknown, malformed, card or another platform's transaction is 404 TRANSACTION_NOT_FOUND", async () => {
    const agent = await payingAgent();
    const { executed } = await agentPayout(agent, 1_000);
    const other = server.client.as(await server.newPlatform());
    for (const [client, id] of [
      [other, executed.body.transactionId],
      [server.client, "Transaction:0190f1c8-2222-7000-8000-000000000abc"],
      [server.client, "CardTransaction:0190f1c8-2222-7000-8000-000000000abc"],
      [server.client, "nope"],
    ] as const) {
      const res = await client.post<ErrorBody>(`/transactions/${id}/approve`);
      expect([res.status, res.body.code]).toEqual([404, "TRANSACTION_NOT_FOUND"]);
    }
  });

  test("approving needs the TRANSACT permission (403 FORBIDDEN)", async () => {
    const token = await server.client.post<{ id: string; clientId: string; clientSecret: string }>(
      "/tokens",
      {
        name: "manager",
        permissions: ["VIEW", "MANAGE"],
      },
    );
    const manager = server.client.as({
      platformId: server.platform.platformId,
      tokenId: token.body.id,
      ...token.body,
    });
    const res = await manager.post<ErrorBody>("/transactions/Transaction:x/approve");
    expect([res.status, res.body.code]).toEqual([403, "FORBIDDEN"]);
  });

  test("an approval the account cannot cover is 400 INSUFFICIENT_FUNDS and the payment stays pending", async () => {
    const agent = await payingAgent({ funds: 500 });
    const { executed } = await agentPayout(agent, 1_000);
    const path = `/transactions/${executed.body.transactionId}/approve`;
    const refused = await server.client.post<ErrorBody>(path);
    expect([refused.status, refused.body.code]).toEqual([400, "INSUFFICIENT_FUNDS"]);
    const tx = await server.client.get<Transaction>(`/transactions/${executed.body.transactionId}`);
    expect(tx.body).toMatchObject({ status: "PENDING", pendingReason: "PLATFORM_APPROVAL_REQUIRED" });
    await server.client.post(`/sandbox/internal-accounts/${agent.accountId}/fund`, { amount: 1_000 });
    const approved = await server.client.post<Transaction>(path);
    expect(approved.status, approved.text).toBe(200);
    expect(await balance(server.client, agent.accountId)).toBe(500);
  });

  test("concurrent approvals of one payment: exactly one executes", async () => {
    const agent = await payingAgent();
    const { executed } = await agentPayout(agent, 1_000);
    const path = `/transactions/${executed.body.transactionId}/approve`;
    const results = await Promise.all([1, 2, 3, 4].map(() => server.client.post<ErrorBody>(path)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409))
      expect(r.body.code).toBe("TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL");
    expect(await balance(server.client, agent.accountId)).toBe(99_000);
    const rows = await server.db.query("SELECT id FROM transactions WHERE quote_id = $1", [executed.body.id]);
    expect(rows).toHaveLength(1);
  });

  test("an approval after the quote expired is 400 QUOTE_EXPIRED and the payment becomes EXPIRED (QUOTE_EXPIRED)", async () => {
    // A server whose job runner is stopped: the expiry job must not get there before the approval does.
    const quiet = await startServer();
    await quiet.jobs.stop();
    try {
      await approvalAfterExpiry(quiet);
    } finally {
      await quiet.close();
    }
  });

  async function approvalAfterExpiry(target: TestServer) {
    const client = target.client;
    const agent = await payingAgent({ client }, target);
    const { executed } = await agentPayout(agent, 1_000);
    const transactionId = executed.body.transactionId as string;
    await advanceClock(client, 5 * 60_000);
    const res = await client.post<ErrorBody>(`/transactions/${transactionId}/approve`);
    expect([res.status, res.body.code]).toEqual([400, "QUOTE_EXPIRED"]);
    const tx = await client.get<Transaction>(`/transactions/${transactionId}`);
    expect(tx.body).toMatchObject({ status: "EXPIRED", failureReason: "QUOTE_EXPIRED" });
    expect(tx.body.pendingReason).toBeUndefined();
    expect((await client.get<Quote>(`/quotes/${executed.body.id}`)).body.status).toBe("EXPIRED");
    expect(await events(transactionId, target)).toEqual([
      "OUTGOING_PAYMENT.PENDING",
      "OUTGOING_PAYMENT.EXPIRED",
    ]);
    const again = await client.post<ErrorBody>(`/transactions/${transactionId}/approve`);
    expect([again.status, again.body.code]).toEqual([409, "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL"]);
    expect(await balance(client, agent.accountId)).toBe(100_000);
  }

  test("an unapproved payment expires on its own when its quote expires", async () => {
    const client = server.client.as(await server.newPlatform());
    const agent = await payingAgent({ client });
    const { executed } = await agentPayout(agent, 1_000);
    const transactionId = executed.body.transactionId as string;
    await advanceClock(client, 5 * 60_000 + 1_000);
    await server.jobs.runDue();
    const tx = await client.get<Transaction>(`/transactions/${transactionId}`);
    expect(tx.body).toMatchObject({ status: "EXPIRED", failureReason: "QUOTE_EXPIRED" });
    expect(await events(transactionId)).toEqual(["OUTGOING_PAYMENT.PENDING", "OUTGOING_PAYMENT.EXPIRED"]);
  });
});

describe("agent payment policy", () => {
  const limits = (extra: Record<string, unknown> = {}) => ({
    spendingLimits: { currency: "USD", perTransactionLimit: 50_000, ...extra },
  });

  test("an amount above perTransactionLimit is 400 TRANSACTION_SIZE_LIMIT_EXCEEDED, nothing stored", async () => {
    const agent = await payingAgent({ policy: limits({ perTransactionLimit: 1_000 }) });
    const before = await server.db.query("SELECT count(*)::int AS n FROM quotes WHERE platform_id = $1", [
      server.platform.platformId,
    ]);
    const res = await agent.agentClient.post<ErrorBody>(
      "/agents/me/quotes",
      transfer(agent.accountId, agent.externalId, 1_001),
    );
    expect([res.status, res.body.code]).toEqual([400, "TRANSACTION_SIZE_LIMIT_EXCEEDED"]);
    expect(
      await server.db.query("SELECT count(*)::int AS n FROM quotes WHERE platform_id = $1", [
        server.platform.platformId,
      ]),
    ).toEqual(before);
    const exact = await agent.agentClient.post(
      "/agents/me/quotes",
      transfer(agent.accountId, agent.externalId, 1_000),
    );
    expect(exact.status).toBe(201);
  });

  test("a currency other than the spending limits' cannot be sent (400 TRANSACTION_SIZE_LIMIT_EXCEEDED)", async () => {
    const agent = await payingAgent({
      policy: { spendingLimits: { currency: "EUR", perTransactionLimit: 9 } },
    });
    const res = await agent.agentClient.post<ErrorBody>(
      "/agents/me/quotes",
      transfer(agent.accountId, agent.externalId, 1),
    );
    expect([res.status, res.body.code]).toEqual([400, "TRANSACTION_SIZE_LIMIT_EXCEEDED"]);
    expect(res.body.reason).toMatch(/USD/);
  });

  test("the policy is checked again at execute, against totalSendingAmount", async () => {
    const agent = await payingAgent();
    const quote = await agent.agentClient.post<Quote>(
      "/agents/me/quotes",
      transfer(agent.accountId, agent.externalId, 2_000),
    );
    const lowered = await server.client.patch(`/agents/${agent.agent.id}/policy`, {
      spendingLimits: { perTransactionLimit: 1_999 },
    });
    expect(lowered.status).toBe(200);
    const res = await agent.agentClient.post<ErrorBody>(`/agents/me/quotes/${quote.body.id}/execute`);
    expect([res.status, res.body.code]).toEqual([400, "TRANSACTION_SIZE_LIMIT_EXCEEDED"]);
    expect((await agent.agentClient.get<Quote>(`/agents/me/quotes/${quote.body.id}`)).body.status).toBe(
      "PENDING",
    );
  });

  test("with defaultExecutionMode AUTO an agent payment executes at once: APPROVED, money moved", async () => {
    const agent = await payingAgent({ policy: { defaultExecutionMode: "AUTO" } });
    const { executed } = await agentPayout(agent, 1_000);
    expect(executed.status, executed.text).toBe(200);
    expect(executed.action).toMatchObject({ type: "EXECUTE_QUOTE", status: "APPROVED" });
    expect(executed.body.status).toBe("PROCESSING");
    expect(await balance(server.client, agent.accountId)).toBe(99_000);
  });

  test("usage counts the day's and month's payments that wait or went through; past dailyLimit is 403 VELOCITY_LIMIT_EXCEEDED", async () => {
    const agent = await payingAgent({ policy: limits({ dailyLimit: 1_500 }) });
    expect((await agentPayout(agent, 1_000)).executed.status).toBe(200);
    const me = await agent.agentClient.get<{ usage: Record<string, number> }>("/agents/me");
    expect(me.body.usage).toMatchObject({ dailyTransactionCount: 1, dailySpend: 1_000, monthlySpend: 1_000 });
    const refused = await agent.agentClient.post<ErrorBody>(
      "/agents/me/quotes",
      transfer(agent.accountId, agent.externalId, 501),
    );
    expect([refused.status, refused.body.code]).toEqual([403, "VELOCITY_LIMIT_EXCEEDED"]);
    expect((await agentPayout(agent, 500)).executed.status).toBe(200);
  });

  test("a rejected payment no longer counts against the limits", async () => {
    const agent = await payingAgent({ policy: limits({ dailyLimit: 1_000 }) });
    const { executed } = await agentPayout(agent, 1_000);
    const actions = await agent.agentClient.get<{ data: { id: string }[] }>("/agents/me/actions");
    const actionId = actions.body.data[0]?.id as string;
    const rejected = await server.client.post(`/agents/${agent.agent.id}/actions/${actionId}/reject`);
    expect(rejected.status, rejected.text).toBe(200);
    expect(executed.status).toBe(200);
    expect((await agentPayout(agent, 1_000)).executed.status).toBe(200);
  });

  test("past dailyTransactionLimit or monthlyLimit is 403 VELOCITY_LIMIT_EXCEEDED, at quote and at execute", async () => {
    const counted = await payingAgent({ policy: limits({ dailyTransactionLimit: 1 }) });
    const quoted = await counted.agentClient.post<Quote>(
      "/agents/me/quotes",
      transfer(counted.accountId, counted.externalId, 100),
    );
    expect((await agentPayout(counted, 100)).executed.status).toBe(200);
    const late = await counted.agentClient.post<ErrorBody>(`/agents/me/quotes/${quoted.body.id}/execute`);
    expect([late.status, late.body.code]).toEqual([403, "VELOCITY_LIMIT_EXCEEDED"]);
    const monthly = await payingAgent({ policy: limits({ monthlyLimit: 150 }) });
    expect((await agentPayout(monthly, 100)).executed.status).toBe(200);
    const refused = await monthly.agentClient.post<ErrorBody>(
      "/agents/me/quotes",
      transfer(monthly.accountId, monthly.externalId, 100),
    );
    expect([refused.status, refused.body.code]).toEqual([403, "VELOCITY_LIMIT_EXCEEDED"]);
  });

  test("AUTO above approvalThresholds.amount waits for approval; at or below it executes", async () => {
    const agent = await payingAgent({
      policy: { defaultExecutionMode: "AUTO", approvalThresholds: { currency: "USD", amount: 1_000 } },
    });
    expect((await agentPayout(agent, 1_000)).executed.action.status).toBe("APPROVED");
    expect((await agentPayout(agent, 1_001)).executed.action.status).toBe("PENDING_APPROVAL");
  });

  test("accountRestrictions: an account outside allowedAccountIds is 403 FORBIDDEN; an account rule's mode and limit apply", async () => {
    const agent = await payingAgent();
    const restrict = (restrictions: Record<string, unknown>) =>
      server.client.patch(`/agents/${agent.agent.id}/policy`, { accountRestrictions: restrictions });
    expect((await restrict({ allowedAccountIds: ["InternalAccount:other"] })).status).toBe(200);
    const refused = await agent.agentClient.post<ErrorBody>(
      "/agents/me/quotes",
      transfer(agent.accountId, agent.externalId, 100),
    );
    expect([refused.status, refused.body.code]).toEqual([403, "FORBIDDEN"]);
    const rule = { accountId: agent.accountId, executionMode: "AUTO", perTransactionLimit: 500 };
    expect((await restrict({ allowedAccountIds: null, accountRules: [rule] })).status).toBe(200);
    expect((await agentPayout(agent, 500)).executed.action.status).toBe("APPROVED");
    const above = await agent.agentClient.post<ErrorBody>(
      "/agents/me/quotes",
      transfer(agent.accountId, agent.externalId, 501),
    );
    expect([above.status, above.body.code]).toEqual([400, "TRANSACTION_SIZE_LIMIT_EXCEEDED"]);
  });

  test("immediatelyExecute is refused on agent quotes (400 INVALID_INPUT)", async () => {
    const agent = await payingAgent();
    const res = await agent.agentClient.post<ErrorBody>(
      "/agents/me/quotes",
      transfer(agent.accountId, agent.externalId, 100, { immediatelyExecute: true }),
    );
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["immediatelyExecute"]);
  });

  test("executing an agent quote twice is 409 CONFLICT; an expired one is 400 QUOTE_EXPIRED", async () => {
    const client = server.client.as(await server.newPlatform());
    const agent = await payingAgent({ client });
    const { quote } = await agentPayout(agent, 1_000);
    const again = await agent.agentClient.post<ErrorBody>(`/agents/me/quotes/${quote.id}/execute`);
    expect([again.status, again.body.code]).toEqual([409, "CONFLICT"]);
    const late = await agent.agentClient.post<Quote>(
      "/agents/me/quotes",
      transfer(agent.accountId, agent.externalId, 100),
    );
    await advanceClock(client, 5 * 60_000);
    const expired = await agent.agentClient.post<ErrorBody>(`/agents/me/quotes/${late.body.id}/execute`);
    expect([expired.status, expired.body.code]).toEqual([400, "QUOTE_EXPIRED"]);
  });

  test("another agent's quote, even of the same customer, is 404 QUOTE_NOT_FOUND", async () => {
    const agent = await payingAgent();
    const sibling = await server.client.post<{ deviceCode: { code: string } }>("/agents", {
      customerId: agent.customerId,
      name: "sibling",
      policy: {
        permissions: ["CREATE_QUOTES", "EXECUTE_QUOTES"],
        defaultExecutionMode: "APPROVAL_REQUIRED",
        spendingLimits: { currency: "USD", perTransactionLimit: 5_000 },
      },
    });
    const token = await server.client.post<{ accessToken: string }>(
      `/agents/device-codes/${sibling.body.deviceCode.code}/redeem`,
      undefined,
      { auth: null },
    );
    const quote = await agent.agentClient.post<Quote>(
      "/agents/me/quotes",
      transfer(agent.accountId, agent.externalId, 100),
    );
    const bearer = { auth: null, headers: { authorization: `Bearer ${token.body.accessToken}` } };
    const read = await server.client.get<ErrorBody>(`/agents/me/quotes/${quote.body.id}`, bearer);
    const execute = await server.client.post<ErrorBody>(
      `/agents/me/quotes/${quote.body.id}/execute`,
      undefined,
      bearer,
    );
    for (const res of [read, execute]) expect([res.status, res.body.code]).toEqual([404, "QUOTE_NOT_FOUND"]);
  });
});
