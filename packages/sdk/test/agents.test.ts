import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { setDailyVolumeLimit } from "../../server/src/quotes/daily-volume.js";
import { startServer, type TestServer } from "../../server/test/harness.js";
import {
  AgentClient,
  type AgentPolicy,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type CreateQuoteBody,
  NotFoundError,
  PaysvcClient,
  PermissionError,
  RateLimitError,
} from "../src/index.js";
import { withEndUserTerms } from "./end-user-terms.js";

/** Wednesday 10:00 in Chicago: 14 hours to the next Chicago midnight. */
const AT = "2027-03-10T16:00:00.000Z";
const NEXT_CHICAGO_MIDNIGHT = "2027-03-11T06:00:00.000Z";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const policy = (overrides: Partial<AgentPolicy> = {}): AgentPolicy => ({
  permissions: [
    "VIEW_TRANSACTIONS",
    "CREATE_TRANSFERS",
    "CREATE_QUOTES",
    "EXECUTE_QUOTES",
    "MANAGE_EXTERNAL_ACCOUNTS",
  ],
  defaultExecutionMode: "APPROVAL_REQUIRED",
  spendingLimits: { currency: "USD", perTransactionLimit: 50_000 },
  ...overrides,
});

async function platform() {
  const credentials = await server.newPlatform();
  const paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...credentials });
  await paysvc.sandbox.advanceClock(AT);
  return { paysvc, platformId: credentials.platformId };
}

async function customerWithAccount(paysvc: PaysvcClient, funds = 100_000) {
  const customer = await paysvc.customers.create({ customerType: "INDIVIDUAL", ...withEndUserTerms });
  const accounts = await paysvc.internalAccounts.listForCustomers({
    customerId: customer.id,
    currency: "USD",
  });
  const accountId = accounts.data[0]?.id as string;
  if (funds > 0) await paysvc.sandbox.fund(accountId, funds);
  return { customerId: customer.id, accountId };
}

/** An agent that holds its payments for approval, and a payout it started: its transaction is pending. */
async function pendingAgentPayment(paysvc: PaysvcClient, amount = 1_000) {
  const { customerId, accountId } = await customerWithAccount(paysvc);
  const { deviceCode } = await paysvc.agents.create({ customerId, name: "Budget bot", policy: policy() });
  const { accessToken } = await paysvc.agents.redeemDeviceCode(deviceCode.code);
  const app = new AgentClient({ baseUrl: server.baseUrl, accessToken });
  const external = await app.createExternalAccount({ currency: "USD", accountInfo: bankAccountInfo });
  const quote = await app.createQuote(payout(accountId, external.id, amount));
  const action = await app.executeQuote(quote.id);
  return { app, accountId, quoteId: quote.id, transactionId: action.transaction?.id as string, action };
}

const bankAccountInfo = {
  accountType: "USD_ACCOUNT",
  accountNumber: "1234567000",
  routingNumber: "021000021",
  bankAccountType: "CHECKING",
  beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace", countryOfResidence: "US" },
} as const;

const payout = (accountId: string, externalId: string, amount: number): CreateQuoteBody => ({
  source: { sourceType: "ACCOUNT", accountId },
  destination: { destinationType: "ACCOUNT", accountId: externalId },
  lockedCurrencySide: "SENDING",
  lockedCurrencyAmount: amount,
});

describe("agents through the SDK", () => {
  test("create answers 201 {agent, deviceCode}: the hosted Agent (not paused, not connected) and a first device code", async () => {
    const { paysvc } = await platform();
    const { customerId } = await customerWithAccount(paysvc, 0);
    const created = await paysvc.agents.create({ customerId, name: "Budget bot", policy: policy() });
    expect(created.lastResponse.status).toBe(201);
    const { agent, deviceCode } = created;
    expect(agent).toMatchObject({
      customerId,
      name: "Budget bot",
      isPaused: false,
      isConnected: false,
      policy: policy(),
      usage: { dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 },
    });
    expect(deviceCode).toMatchObject({ agentId: agent.id, code: expect.any(String), redeemed: false });
    expect(await paysvc.agents.get(agent.id)).toEqual(agent);
  });

  test("redeeming a device code answers {agentId, agentName, accessToken, policy}; a second redeem is ConflictError CONFLICT", async () => {
    const { paysvc } = await platform();
    const { customerId } = await customerWithAccount(paysvc, 0);
    const { agent, deviceCode } = await paysvc.agents.create({ customerId, name: "Bot", policy: policy() });
    const redeemed = await paysvc.agents.redeemDeviceCode(deviceCode.code);
    expect(redeemed).toMatchObject({ agentId: agent.id, agentName: "Bot", policy: agent.policy });
    expect((await paysvc.agents.get(agent.id)).isConnected).toBe(true);
    const again = paysvc.agents.redeemDeviceCode(deviceCode.code);
    await expect(again).rejects.toBeInstanceOf(ConflictError);
    await expect(again).rejects.toMatchObject({ status: 409, code: "CONFLICT" });
  });

  test("update renames and pauses; updatePolicy changes the fields given; delete answers 204 and the token stops working", async () => {
    const { paysvc } = await platform();
    const { customerId } = await customerWithAccount(paysvc, 0);
    const { agent, deviceCode } = await paysvc.agents.create({ customerId, name: "Bot", policy: policy() });
    const { accessToken } = await paysvc.agents.redeemDeviceCode(deviceCode.code);
    const renamed = await paysvc.agents.update(agent.id, { name: "Renamed", isPaused: true });
    expect(renamed).toMatchObject({ name: "Renamed", isPaused: true, policy: agent.policy });
    const updated = await paysvc.agents.updatePolicy(agent.id, {
      permissions: ["VIEW_TRANSACTIONS"],
      defaultExecutionMode: "AUTO",
      spendingLimits: { dailyLimit: 10_000 },
    });
    expect(updated.policy).toEqual({
      permissions: ["VIEW_TRANSACTIONS"],
      defaultExecutionMode: "AUTO",
      spendingLimits: { currency: "USD", perTransactionLimit: 50_000, dailyLimit: 10_000 },
    });
    await expect(paysvc.agents.updatePolicy(agent.id, {})).rejects.toBeInstanceOf(BadRequestError);
    const deleted = await paysvc.agents.delete(agent.id);
    expect(deleted.lastResponse.status).toBe(204);
    await expect(paysvc.agents.get(agent.id)).rejects.toBeInstanceOf(NotFoundError);
    const me = await fetch(`${server.baseUrl}/agents/me`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(me.status).toBe(401);
  });

  test("getDeviceCodeStatus answers redeemed false, then true once redeemed; another platform's code is NotFoundError", async () => {
    const { paysvc } = await platform();
    const { customerId } = await customerWithAccount(paysvc, 0);
    const { deviceCode } = await paysvc.agents.create({ customerId, name: "Bot", policy: policy() });
    const code = deviceCode.code;
    expect(await paysvc.agents.getDeviceCodeStatus(code)).toMatchObject({ code, redeemed: false });
    await paysvc.agents.redeemDeviceCode(code);
    expect(await paysvc.agents.getDeviceCodeStatus(code)).toMatchObject({ code, redeemed: true });
    const { paysvc: other } = await platform();
    await expect(other.agents.getDeviceCodeStatus(code)).rejects.toBeInstanceOf(NotFoundError);
  });

  test("createDeviceCode issues a new code; redeeming it replaces the access token", async () => {
    const { paysvc } = await platform();
    const { customerId } = await customerWithAccount(paysvc, 0);
    const { agent, deviceCode } = await paysvc.agents.create({ customerId, name: "Bot", policy: policy() });
    const first = await paysvc.agents.redeemDeviceCode(deviceCode.code);
    const code = await paysvc.agents.createDeviceCode(agent.id);
    expect(code.lastResponse.status).toBe(201);
    expect(code).toMatchObject({ agentId: agent.id, redeemed: false });
    const second = await paysvc.agents.redeemDeviceCode(code.code);
    expect(second.accessToken).not.toBe(first.accessToken);
  });

  test("listAll walks the agents filtered by customer across pages", async () => {
    const { paysvc } = await platform();
    const { customerId } = await customerWithAccount(paysvc, 0);
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push((await paysvc.agents.create({ customerId, name: `Bot ${i}`, policy: policy() })).agent.id);
    const all = [];
    for await (const a of paysvc.agents.listAll({ customerId, limit: 2, sortOrder: "asc" })) all.push(a.id);
    expect(all).toEqual(ids);
  });

  test("an invalid policy is BadRequestError INVALID_INPUT; another platform's agent is NotFoundError", async () => {
    const { paysvc } = await platform();
    const { customerId } = await customerWithAccount(paysvc, 0);
    const refused = paysvc.agents.create({
      customerId,
      name: "Bot",
      policy: policy({ permissions: ["FLY" as "VIEW_TRANSACTIONS"] }),
    });
    await expect(refused).rejects.toBeInstanceOf(BadRequestError);
    await expect(refused).rejects.toMatchObject({ code: "INVALID_INPUT" });
    const { agent } = await paysvc.agents.create({ customerId, name: "Bot", policy: policy() });
    const { paysvc: other } = await platform();
    await expect(other.agents.get(agent.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("transactions.approve", () => {
  test("approve executes an agent payment waiting for platform approval", async () => {
    const { paysvc } = await platform();
    const { accountId, transactionId } = await pendingAgentPayment(paysvc);
    const pending = await paysvc.transactions.get(transactionId);
    expect(pending).toMatchObject({ pendingReason: "PLATFORM_APPROVAL_REQUIRED" });
    const approved = await paysvc.transactions.approve(transactionId);
    expect(approved.lastResponse.status).toBe(200);
    expect(approved).toMatchObject({ id: transactionId, status: "PROCESSING" });
    expect(approved.pendingReason).toBeUndefined();
    expect((await paysvc.internalAccounts.get(accountId)).totalBalance.amount).toBe(99_000);
  });

  test("reject fails an agent payment waiting for platform approval; a second reject is ConflictError", async () => {
    const { paysvc } = await platform();
    const { accountId, transactionId } = await pendingAgentPayment(paysvc);
    const rejected = await paysvc.transactions.reject(transactionId, { reason: "RESTRICTED_JURISDICTION" });
    expect(rejected.lastResponse.status).toBe(200);
    expect(rejected).toMatchObject({ id: transactionId, status: "FAILED" });
    expect((await paysvc.internalAccounts.get(accountId)).totalBalance.amount).toBe(100_000);
    const again = paysvc.transactions.reject(transactionId);
    await expect(again).rejects.toBeInstanceOf(ConflictError);
    await expect(again).rejects.toMatchObject({ code: "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL" });
  });

  test("listApprovals lists the pending action; approveAction executes it and the agent reads it APPROVED", async () => {
    const { paysvc } = await platform();
    const { app, quoteId, transactionId } = await pendingAgentPayment(paysvc);
    const page = await paysvc.agents.listApprovals();
    expect(page.data).toHaveLength(1);
    const action = page.data[0];
    expect(action).toMatchObject({
      status: "PENDING_APPROVAL",
      type: "EXECUTE_QUOTE",
      quote: { id: quoteId },
      transaction: { id: transactionId, status: "PENDING" },
    });
    const all: string[] = [];
    for await (const a of paysvc.agents.listAllApprovals({ limit: 1 })) all.push(a.id);
    expect(all).toEqual([action?.id]);
    const approved = await paysvc.agents.approveAction(action?.agentId as string, action?.id as string);
    expect(approved).toMatchObject({ status: "APPROVED", transaction: { status: "PROCESSING" } });
    expect(await app.getAction(action?.id as string)).toMatchObject({ status: "APPROVED" });
    const again = paysvc.agents.approveAction(action?.agentId as string, action?.id as string);
    await expect(again).rejects.toBeInstanceOf(ConflictError);
    await expect(again).rejects.toMatchObject({ code: "CONFLICT" });
  });

  test("rejectAction makes the action REJECTED with its reason; the agent lists it by status", async () => {
    const { paysvc } = await platform();
    const { app } = await pendingAgentPayment(paysvc);
    const [action] = (await app.listActions({ status: "PENDING_APPROVAL" })).data;
    const rejected = await paysvc.agents.rejectAction(action?.agentId as string, action?.id as string, {
      reason: "Not this week.",
    });
    expect(rejected).toMatchObject({
      status: "REJECTED",
      rejectionReason: "Not this week.",
      transaction: { status: "FAILED" },
    });
    const listed: string[] = [];
    for await (const a of app.listAllActions({ status: "REJECTED" })) listed.push(a.id);
    expect(listed).toEqual([action?.id]);
    await expect(app.getAction("AgentAction:nope")).rejects.toBeInstanceOf(NotFoundError);
  });

  test("approving twice is ConflictError TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL", async () => {
    const { paysvc } = await platform();
    const { transactionId } = await pendingAgentPayment(paysvc);
    await paysvc.transactions.approve(transactionId);
    const again = paysvc.transactions.approve(transactionId);
    await expect(again).rejects.toBeInstanceOf(ConflictError);
    await expect(again).rejects.toMatchObject({ code: "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL" });
  });

  test("a retried approval with the same idempotency key answers the same approval", async () => {
    const { paysvc } = await platform();
    const { transactionId } = await pendingAgentPayment(paysvc);
    const first = await paysvc.transactions.approve(transactionId, { idempotencyKey: "approve-1" });
    const again = await paysvc.transactions.approve(transactionId, { idempotencyKey: "approve-1" });
    expect(again).toEqual({ ...first });
  });

  test("an approval above the daily volume limit is RateLimitError DAILY_VOLUME_LIMIT_EXCEEDED with retryAfterSeconds to Chicago midnight", async () => {
    const { paysvc, platformId } = await platform();
    const { transactionId } = await pendingAgentPayment(paysvc, 1_000);
    await setDailyVolumeLimit(server.deps, platformId, 500);
    // The platform clock runs on from AT, so the seconds to midnight are bounded by reads around the call.
    const midnight = Date.parse(NEXT_CHICAGO_MIDNIGHT);
    const before = Date.parse((await paysvc.sandbox.getClock()).now);
    const refused = paysvc.transactions.approve(transactionId);
    await expect(refused).rejects.toBeInstanceOf(RateLimitError);
    const after = Date.parse((await paysvc.sandbox.getClock()).now);
    await expect(refused).rejects.toMatchObject({
      status: 429,
      code: "DAILY_VOLUME_LIMIT_EXCEEDED",
      details: expect.objectContaining({ dailyVolumeLimit: 500, requestedVolume: 1_000 }),
    });
    const { retryAfterSeconds } = (await refused.catch((error: unknown) => error)) as RateLimitError;
    expect(retryAfterSeconds).toBeGreaterThanOrEqual(Math.ceil((midnight - after) / 1000));
    expect(retryAfterSeconds).toBeLessThanOrEqual(Math.ceil((midnight - before) / 1000));
    expect(retryAfterSeconds).toBeLessThanOrEqual(14 * 3600);
    expect(await paysvc.transactions.get(transactionId)).toMatchObject({
      pendingReason: "PLATFORM_APPROVAL_REQUIRED",
    });
  });

  test("an unknown transaction is NotFoundError TRANSACTION_NOT_FOUND; wrong credentials are AuthenticationError", async () => {
    const { paysvc } = await platform();
    const missing = paysvc.transactions.approve("Transaction:0190f1c8-2222-7000-8000-000000000abc");
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    await expect(missing).rejects.toMatchObject({ code: "TRANSACTION_NOT_FOUND" });
    const stranger = new PaysvcClient({ baseUrl: server.baseUrl, clientId: "nobody", clientSecret: "wrong" });
    await expect(stranger.transactions.approve("Transaction:x")).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe("AgentClient (the agent app's own calls)", () => {
  test("executeQuote answers the EXECUTE_QUOTE action; me answers the agent with its usage; its customer's accounts and its own payment are readable", async () => {
    const { paysvc } = await platform();
    const { app, accountId, quoteId, transactionId, action } = await pendingAgentPayment(paysvc);
    expect(action).toMatchObject({
      type: "EXECUTE_QUOTE",
      status: "PENDING_APPROVAL",
      quote: { id: quoteId },
    });
    const me = await app.me();
    expect(me).toMatchObject({ isPaused: false, isConnected: true, name: "Budget bot" });
    expect(me.usage).toMatchObject({ dailyTransactionCount: 1, dailySpend: 1_000 });
    const accounts = [];
    for await (const account of app.listAllInternalAccounts({ currency: "USD" })) accounts.push(account.id);
    expect(accounts).toEqual([accountId]);
    expect(await app.getQuote(quoteId)).toMatchObject({ id: quoteId, transactionId });
    expect(await app.getTransaction(transactionId)).toMatchObject({
      id: transactionId,
      pendingReason: "PLATFORM_APPROVAL_REQUIRED",
    });
    const transactions = [];
    for await (const t of app.listAllTransactions({ type: "OUTGOING" })) transactions.push(t.id);
    expect(transactions).toEqual([transactionId]);
  });

  test("listTransactions sends the hosted filters: by sender its payout, by receiver its deposit; a bad date is BadRequestError", async () => {
    const { paysvc } = await platform();
    const { app, accountId, transactionId } = await pendingAgentPayment(paysvc);
    const sent = await app.listTransactions({ senderAccountIdentifier: accountId, startDate: "2027-03-10" });
    expect(sent.data.map((t) => t.id)).toEqual([transactionId]);
    const received = await app.listTransactions({
      receiverAccountIdentifier: accountId,
      endDate: "2027-03-10",
    });
    expect(received.data.map((t) => t.type)).toEqual(["INCOMING"]);
    await expect(app.listTransactions({ startDate: "tomorrow" })).rejects.toBeInstanceOf(BadRequestError);
  });

  test("the agent reads and deletes one of its customer's external accounts; another customer's is NotFoundError", async () => {
    const { paysvc } = await platform();
    const { app } = await pendingAgentPayment(paysvc);
    const { app: other } = await pendingAgentPayment(paysvc);
    const [account] = (await app.listExternalAccounts()).data;
    const id = account?.id as string;
    expect(await app.getExternalAccount(id)).toMatchObject({ id, currency: "USD" });
    const foreign = other.getExternalAccount(id);
    await expect(foreign).rejects.toBeInstanceOf(NotFoundError);
    await expect(foreign).rejects.toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
    await expect(other.deleteExternalAccount(id)).rejects.toBeInstanceOf(NotFoundError);
    const deleted = await app.deleteExternalAccount(id);
    expect(deleted.lastResponse.status).toBe(204);
    await expect(app.getExternalAccount(id)).rejects.toBeInstanceOf(NotFoundError);
  });

  test("transferOut answers a TRANSFER_OUT action awaiting approval; above the policy maximum is BadRequestError", async () => {
    const { paysvc } = await platform();
    const { app, accountId } = await pendingAgentPayment(paysvc);
    const [external] = (await app.listExternalAccounts()).data;
    const payload = {
      source: { accountId },
      destination: { accountId: external?.id as string },
      amount: 2_000,
    };
    const action = await app.transferOut(payload);
    expect(action.lastResponse.status).toBe(201);
    expect(action).toMatchObject({
      type: "TRANSFER_OUT",
      status: "PENDING_APPROVAL",
      transferDetails: { amount: 2_000, currency: "USD", sourceAccountId: accountId },
    });
    const tooMuch = app.transferOut({ ...payload, amount: 50_001 });
    await expect(tooMuch).rejects.toBeInstanceOf(BadRequestError);
    await expect(tooMuch).rejects.toMatchObject({ code: "TRANSACTION_SIZE_LIMIT_EXCEEDED" });
  });

  test("an operation outside the agent's policy is PermissionError FORBIDDEN", async () => {
    const { paysvc } = await platform();
    const { customerId, accountId } = await customerWithAccount(paysvc);
    const { deviceCode } = await paysvc.agents.create({
      customerId,
      name: "Viewer",
      policy: policy({ permissions: ["VIEW_TRANSACTIONS"] }),
    });
    const { accessToken } = await paysvc.agents.redeemDeviceCode(deviceCode.code);
    const app = new AgentClient({ baseUrl: server.baseUrl, accessToken });
    const refused = app.createQuote(payout(accountId, accountId, 100));
    await expect(refused).rejects.toBeInstanceOf(PermissionError);
    await expect(refused).rejects.toMatchObject({ status: 403, code: "FORBIDDEN" });
  });

  test("a deleted agent's calls are AuthenticationError", async () => {
    const { paysvc } = await platform();
    const { app } = await pendingAgentPayment(paysvc);
    await paysvc.agents.delete((await app.me()).id);
    await expect(app.me()).rejects.toBeInstanceOf(AuthenticationError);
  });

  test("transferIn answers a TRANSFER_IN action; approving it moves the money", async () => {
    const { paysvc } = await platform();
    const { app, accountId } = await pendingAgentPayment(paysvc);
    const [external] = (await app.listExternalAccounts()).data;
    const action = await app.transferIn({
      source: { accountId: external?.id as string },
      destination: { accountId },
      amount: 3_000,
    });
    expect(action.lastResponse.status).toBe(201);
    expect(action).toMatchObject({ type: "TRANSFER_IN", status: "PENDING_APPROVAL" });
    const approved = await paysvc.agents.approveAction(action.agentId, action.id);
    expect(approved).toMatchObject({ status: "APPROVED", transaction: { status: "COMPLETED" } });
    expect((await paysvc.internalAccounts.get(accountId)).totalBalance.amount).toBe(103_000);
  });

  test("the agent's calls carry its Bearer token and no Idempotency-Key", async () => {
    const seen: Headers[] = [];
    const recording: typeof fetch = (input, init) => {
      seen.push(new Headers(init?.headers));
      return fetch(input, init);
    };
    const { paysvc } = await platform();
    const { customerId } = await customerWithAccount(paysvc, 0);
    const { deviceCode } = await paysvc.agents.create({ customerId, name: "Bot", policy: policy() });
    const { accessToken } = await paysvc.agents.redeemDeviceCode(deviceCode.code);
    const app = new AgentClient({ baseUrl: server.baseUrl, accessToken, fetch: recording });
    await app.createExternalAccount({ currency: "USD", accountInfo: bankAccountInfo });
    expect(seen.map((h) => [h.get("authorization"), h.get("idempotency-key")])).toEqual([
      [`Bearer ${accessToken}`, null],
    ]);
  });
});
