import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { agentSetup, bankAccountInfo, transfer } from "../agents/helpers.js";
import { startServer, type TestServer } from "../harness.js";
import {
  advance,
  changesOf,
  eventsOf,
  type Payout,
  payer,
  payout,
  platformClient,
  type Transaction,
  transactionOf,
} from "../payouts/helpers.js";
import { balanceOf, type ErrorBody, fund, newAccount } from "../quotes/helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("POST /transactions/{id}/cancel", () => {
  test("a PROCESSING payout -> FAILED QUOTE_EXECUTION_FAILED, the debit refunded at once (USER_CANCELLATION), quote FAILED", async () => {
    const client = await platformClient(server);
    const { accountId, externalId } = await payer(client, { funds: 10_000 });
    const quote = await client.post<Payout>(
      "/quotes",
      payout(accountId, externalId, 2_500, { immediatelyExecute: true }),
    );
    expect(quote.body.status).toBe("PROCESSING");
    const id = quote.body.transactionId as string;
    const res = await client.post<Transaction>(`/transactions/${id}/cancel`, {
      reason: "REQUESTED_AFTER_HOURS",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "FAILED", failureReason: "QUOTE_EXECUTION_FAILED" });
    expect(res.body.refund).toMatchObject({
      status: "COMPLETED",
      reason: "USER_CANCELLATION",
      amount: { amount: 2_500 },
    });
    expect(await changesOf(server, id)).toEqual([
      { amount: -2_500, fee: 0 },
      { amount: 2_500, fee: 0 },
    ]);
    expect((await client.get<Payout>(`/quotes/${quote.body.id}`)).body.status).toBe("FAILED");
    expect(await eventsOf(server, id)).toEqual(
      expect.arrayContaining(["OUTGOING_PAYMENT.FAILED", "OUTGOING_PAYMENT.REFUND_COMPLETED"]),
    );
  });

  test("a cancelled payout stays FAILED when its settlement time comes: the settle job leaves it alone", async () => {
    const client = await platformClient(server);
    const { accountId, externalId } = await payer(client, { funds: 10_000 });
    const quote = await client.post<Payout>(
      "/quotes",
      payout(accountId, externalId, 1_000, { immediatelyExecute: true }),
    );
    const id = quote.body.transactionId as string;
    const expected = (await transactionOf(client, id)).expectedSettlementAt as string;
    expect((await client.post(`/transactions/${id}/cancel`, {})).status).toBe(200);
    await advance(client, new Date(Date.parse(expected) + 1_000));
    await server.jobs.runDue();
    expect((await transactionOf(client, id)).status).toBe("FAILED");
    expect(await changesOf(server, id)).toHaveLength(2);
  });

  test("a settled transfer -> 409 TRANSACTION_NOT_CANCELLABLE and nothing changes", async () => {
    const from = await newAccount(server);
    const to = await newAccount(server);
    await fund(server, from, 1_000);
    const quote = await server.client.post<{ transactionId: string }>(
      "/quotes",
      transfer(from, to, 400, { immediatelyExecute: true }),
    );
    const res = await server.client.post<ErrorBody>(`/transactions/${quote.body.transactionId}/cancel`, {});
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("TRANSACTION_NOT_CANCELLABLE");
    expect(await balanceOf(server, to)).toBe(400);
  });

  test("an incoming payment -> 409 TRANSACTION_NOT_CANCELLABLE", async () => {
    const to = await newAccount(server);
    const deposit = await server.client.post<Transaction>(`/sandbox/internal-accounts/${to}/ach-deposit`, {
      amount: 700,
    });
    const res = await server.client.post<ErrorBody>(`/transactions/${deposit.body.id}/cancel`, {});
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("TRANSACTION_NOT_CANCELLABLE");
  });

  test("an agent payment awaiting platform approval -> FAILED, nothing was debited, and it can no longer be approved", async () => {
    const setup = await agentSetup(server, { policy: { defaultExecutionMode: "APPROVAL_REQUIRED" } });
    const external = await setup.agentClient.post<{ id: string }>("/agents/me/external-accounts", {
      currency: "USD",
      accountInfo: bankAccountInfo(),
    });
    const quote = await setup.agentClient.post<{ id: string; transactionId: string }>(
      "/agents/me/quotes",
      transfer(setup.accountId, external.body.id, 900),
    );
    const executed = await setup.agentClient.post<{ status: string }>(
      `/agents/me/quotes/${quote.body.id}/execute`,
    );
    expect(executed.body.status).toBe("PENDING_APPROVAL"); // the EXECUTE_QUOTE AgentAction
    const before = await balanceOf(server, setup.accountId);
    const res = await server.client.post<Transaction>(`/transactions/${quote.body.transactionId}/cancel`, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "FAILED", failureReason: "QUOTE_EXECUTION_FAILED" });
    expect(await balanceOf(server, setup.accountId)).toBe(before);
    const approve = await server.client.post<ErrorBody>(
      `/transactions/${quote.body.transactionId}/approve`,
      {},
    );
    expect(approve.status).toBe(409);
    expect(approve.body.code).toBe("TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL");
  });

  test("an unknown, malformed or other platform's transaction -> 404 TRANSACTION_NOT_FOUND", async () => {
    const client = await platformClient(server);
    const { accountId, externalId } = await payer(client, { funds: 10_000 });
    const quote = await client.post<Payout>(
      "/quotes",
      payout(accountId, externalId, 100, { immediatelyExecute: true }),
    );
    for (const id of [
      quote.body.transactionId,
      "Transaction:nope",
      "Transaction:019542f5-b3e7-7d02-8000-000000000005",
    ]) {
      const res = await server.client.post<ErrorBody>(`/transactions/${id}/cancel`, {});
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("TRANSACTION_NOT_FOUND");
    }
  });
});

describe("POST /transactions/{id}/confirm", () => {
  test("records receiptDeliveryConfirmedAt (now by default); a second confirmation keeps the first", async () => {
    const to = await newAccount(server);
    const deposit = await server.client.post<Transaction>(`/sandbox/internal-accounts/${to}/ach-deposit`, {
      amount: 700,
    });
    const first = await server.client.post<Transaction>(`/transactions/${deposit.body.id}/confirm`);
    expect(first.status).toBe(200);
    const at = first.body.receiptDeliveryConfirmedAt as string;
    expect(Date.parse(at)).toBeGreaterThan(0);
    const second = await server.client.post<Transaction>(`/transactions/${deposit.body.id}/confirm`, {
      receiptDeliveryConfirmedAt: "2026-01-01T00:00:00Z",
    });
    expect(second.body.receiptDeliveryConfirmedAt).toBe(at);
    expect((await transactionOf(server.client, deposit.body.id)).receiptDeliveryConfirmedAt).toBe(at);
  });

  test("a receiptDeliveryConfirmedAt in the future -> 400 naming it", async () => {
    const to = await newAccount(server);
    const deposit = await server.client.post<Transaction>(`/sandbox/internal-accounts/${to}/ach-deposit`, {
      amount: 700,
    });
    const res = await server.client.post<ErrorBody>(`/transactions/${deposit.body.id}/confirm`, {
      receiptDeliveryConfirmedAt: "2999-01-01T00:00:00Z",
    });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["receiptDeliveryConfirmedAt"]);
  });
});
