import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { currencySettings, newUsdAccount, startServer, type TestServer } from "../harness.js";

type Tx = {
  id: string;
  status: string;
  failureReason?: string;
  paymentRail?: string;
  refund?: Record<string, unknown>;
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const usdAccount = () => newUsdAccount(server.client);

const changesOf = (transactionId: string) =>
  server.db.query<{ amount: number; fee: number }>(
    "SELECT amount, fee FROM balance_changes WHERE transaction_id = $1 ORDER BY effective_at, recorded_at, amount DESC",
    [transactionId],
  );
const balance = async (accountId: string) =>
  (await server.client.get<{ totalBalance: { amount: number } }>(`/internal-accounts/${accountId}`)).body
    .totalBalance.amount;
const eventTypes = async (transactionId: string) =>
  (
    await server.db.query<{ type: string }>(
      "SELECT type FROM webhook_events WHERE body LIKE $1 ORDER BY created_at, id",
      [`%"transactionId":"${transactionId}"%`],
    )
  ).map((e) => e.type);

describe("ACH deposit and its later return (sandbox)", () => {
  test("an ACH deposit and its return are two changes of one transaction, which ends FAILED PAYOUT_RETURNED", async () => {
    const accountId = await usdAccount();
    const deposit = await server.client.post<Tx>(`/sandbox/internal-accounts/${accountId}/ach-deposit`, {
      amount: 2_500,
    });
    expect(deposit.status).toBe(200);
    expect(deposit.body).toMatchObject({ type: "INCOMING", status: "COMPLETED", paymentRail: "ACH" });
    expect(await balance(accountId)).toBe(2_500);
    const returned = await server.client.post<Tx>(`/sandbox/transactions/${deposit.body.id}/ach-return`);
    expect(returned.status).toBe(200);
    expect(returned.body).toMatchObject({
      id: deposit.body.id,
      status: "FAILED",
      failureReason: "PAYOUT_RETURNED",
    });
    expect(await changesOf(deposit.body.id)).toEqual([
      { amount: 2_500, fee: 0 },
      { amount: -2_500, fee: 0 },
    ]);
    expect(await balance(accountId)).toBe(0);
  });

  test("a return after the money was spent (held) goes through and takes the available balance below zero", async () => {
    const accountId = await usdAccount();
    const deposit = await server.client.post<Tx>(`/sandbox/internal-accounts/${accountId}/ach-deposit`, {
      amount: 100,
    });
    // A card hold has taken the whole deposit; the bank's return still has to be booked.
    await server.db.query("UPDATE internal_accounts SET held_amount = 100 WHERE id = $1", [accountId]);
    const returned = await server.client.post(`/sandbox/transactions/${deposit.body.id}/ach-return`);
    expect(returned.status).toBe(200);
    const account = await server.client.get<{
      balance: { amount: number };
      totalBalance: { amount: number };
    }>(`/internal-accounts/${accountId}`);
    expect(account.body.totalBalance.amount).toBe(0);
    expect(account.body.balance.amount).toBe(-100);
  });

  test("returning twice, or returning a deposit that is not ACH -> 409 CONFLICT", async () => {
    const accountId = await usdAccount();
    const deposit = await server.client.post<Tx>(`/sandbox/internal-accounts/${accountId}/ach-deposit`, {
      amount: 100,
    });
    await server.client.post(`/sandbox/transactions/${deposit.body.id}/ach-return`);
    const again = await server.client.post(`/sandbox/transactions/${deposit.body.id}/ach-return`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "CONFLICT" });
    await server.client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 5 });
    const funded = await server.client.get<{ data: Tx[] }>(
      `/transactions?accountIdentifier=${accountId}&limit=1`,
    );
    const notAch = await server.client.post(`/sandbox/transactions/${funded.body.data[0]?.id}/ach-return`);
    expect(notAch.status).toBe(409);
  });

  test("ACH deposits are USD only: another currency -> 400 INVALID_CURRENCY", async () => {
    await server.client.patch("/config", { supportedCurrencies: currencySettings("USD", "EUR", "USDB") });
    const customer = await server.client.post<{ id: string }>("/customers", { customerType: "INDIVIDUAL" });
    await server.client.patch("/config", { supportedCurrencies: currencySettings("USD", "USDB") });
    const eur = await server.client.get<{ data: { id: string }[] }>(
      `/customers/internal-accounts?customerId=${customer.body.id}&currency=EUR`,
    );
    const res = await server.client.post(`/sandbox/internal-accounts/${eur.body.data[0]?.id}/ach-deposit`, {
      amount: 1,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_CURRENCY" });
  });

  test("an unknown transaction -> 404 TRANSACTION_NOT_FOUND", async () => {
    const res = await server.client.post("/sandbox/transactions/Transaction:nope/ach-return");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "TRANSACTION_NOT_FOUND" });
  });
});

describe("refund of an incoming payment (sandbox)", () => {
  test("REFUND_PENDING then REFUND_COMPLETED: the account is debited once and the transaction is REFUNDED", async () => {
    const accountId = await usdAccount();
    const deposit = await server.client.post<Tx>(`/sandbox/internal-accounts/${accountId}/ach-deposit`, {
      amount: 700,
    });
    const refund = await server.client.post<Record<string, unknown>>(
      `/sandbox/transactions/${deposit.body.id}/refund`,
      {
        outcome: "COMPLETED",
      },
    );
    expect(refund.status).toBe(200);
    expect(refund.body).toMatchObject({
      transactionId: deposit.body.id,
      status: "COMPLETED",
      amount: { amount: 700 },
      reason: "MANUAL_REFUND",
    });
    expect(await eventTypes(deposit.body.id)).toEqual([
      "INCOMING_PAYMENT.REFUND_PENDING",
      "INCOMING_PAYMENT.REFUND_COMPLETED",
    ]);
    expect(await changesOf(deposit.body.id)).toEqual([
      { amount: 700, fee: 0 },
      { amount: -700, fee: 0 },
    ]);
    const tx = await server.client.get<Tx>(`/transactions/${deposit.body.id}`);
    expect(tx.body).toMatchObject({ status: "REFUNDED", refund: { status: "COMPLETED" } });
    expect(await balance(accountId)).toBe(0);
  });

  test("REFUND_PENDING then REFUND_FAILED: the debit is given back by a second change", async () => {
    const accountId = await usdAccount();
    const deposit = await server.client.post<Tx>(`/sandbox/internal-accounts/${accountId}/ach-deposit`, {
      amount: 300,
    });
    const refund = await server.client.post(`/sandbox/transactions/${deposit.body.id}/refund`, {
      outcome: "FAILED",
    });
    expect(refund.body).toMatchObject({ status: "FAILED" });
    expect(await eventTypes(deposit.body.id)).toEqual([
      "INCOMING_PAYMENT.REFUND_PENDING",
      "INCOMING_PAYMENT.REFUND_FAILED",
    ]);
    expect(await changesOf(deposit.body.id)).toEqual([
      { amount: 300, fee: 0 },
      { amount: -300, fee: 0 },
      { amount: 300, fee: 0 },
    ]);
    expect(await balance(accountId)).toBe(300);
    const tx = await server.client.get<Tx>(`/transactions/${deposit.body.id}`);
    expect(tx.body).toMatchObject({ status: "COMPLETED", refund: { status: "FAILED" } });
  });

  test("a refund the account cannot cover -> 400 INSUFFICIENT_FUNDS and nothing is written", async () => {
    const accountId = await usdAccount();
    const deposit = await server.client.post<Tx>(`/sandbox/internal-accounts/${accountId}/ach-deposit`, {
      amount: 300,
    });
    await server.client.post(`/sandbox/transactions/${deposit.body.id}/ach-return`);
    await server.client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 10 });
    const funded = await server.client.get<{ data: Tx[] }>(
      `/transactions?accountIdentifier=${accountId}&limit=1`,
    );
    await server.db.query("UPDATE internal_accounts SET held_amount = 10 WHERE id = $1", [accountId]);
    const res = await server.client.post(`/sandbox/transactions/${funded.body.data[0]?.id}/refund`);
    await server.db.query("UPDATE internal_accounts SET held_amount = 0 WHERE id = $1", [accountId]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INSUFFICIENT_FUNDS" });
    expect(await eventTypes(funded.body.data[0]?.id ?? "")).toEqual([]);
  });

  test("a second refund of the same payment -> 409 CONFLICT", async () => {
    const accountId = await usdAccount();
    const deposit = await server.client.post<Tx>(`/sandbox/internal-accounts/${accountId}/ach-deposit`, {
      amount: 50,
    });
    await server.client.post(`/sandbox/transactions/${deposit.body.id}/refund`);
    const again = await server.client.post(`/sandbox/transactions/${deposit.body.id}/refund`);
    expect(again.status).toBe(409);
  });
});
