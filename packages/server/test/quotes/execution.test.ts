import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { balanceOf, fund, ledgerInvariantHolds, newAccount, type Quote, transfer } from "./helpers.js";

type Transaction = Record<string, unknown> & { id: string; type: string };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await server.client.patch("/config", {
    feeConfigs: [{ rail: "INTERNAL", variableRateBps: 100, fixedAmount: 30 }],
  });
});
afterAll(() => server.close());

async function funded(amount: number): Promise<{ from: string; to: string }> {
  const from = await newAccount(server);
  const to = await newAccount(server);
  if (amount > 0) await fund(server, from, amount);
  return { from, to };
}

const extra = {
  remittanceInformation: "Invoice 42",
  purposeOfPayment: "GOODS_OR_SERVICES",
  description: "March",
};

describe("execution: one transaction moves the money (conventions §3.3)", () => {
  test("immediatelyExecute -> 201 COMPLETED, transactionId = the sender's OUTGOING transaction", async () => {
    const { from, to } = await funded(20_000);
    const res = await server.client.post<Quote>(
      "/quotes",
      transfer(from, to, 10_000, { immediatelyExecute: true, ...extra }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: "COMPLETED",
      totalSendingAmount: 10_000,
      totalReceivingAmount: 9_870,
      feesIncluded: 130,
      platformFeesIncluded: 130,
    });
    const outgoing = await server.client.get<Transaction>(`/transactions/${res.body.transactionId}`);
    expect(outgoing.body).toMatchObject({
      type: "OUTGOING",
      status: "COMPLETED",
      direction: "DEBIT",
      quoteId: res.body.id,
      sentAmount: { amount: 10_000, currency: { code: "USD" } },
      receivedAmount: { amount: 9_870, currency: { code: "USD" } },
      fees: 130,
      platformFees: 130,
      exchangeRate: 1,
      remittanceInformation: "Invoice 42",
      purposeOfPayment: "GOODS_OR_SERVICES",
      description: "March",
      source: { sourceType: "ACCOUNT", accountId: from },
      destination: { destinationType: "ACCOUNT", accountId: to },
    });
    expect(await balanceOf(server, from)).toBe(10_000);
    expect(await balanceOf(server, to)).toBe(9_870);
  });

  test("the receiver gets an INCOMING transaction linked to the OUTGOING one by quoteId", async () => {
    const { from, to } = await funded(10_000);
    const quote = await server.client.post<Quote>(
      "/quotes",
      transfer(from, to, 10_000, { immediatelyExecute: true, ...extra }),
    );
    const list = await server.client.get<{ data: Transaction[] }>(`/transactions?accountIdentifier=${to}`);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({
      type: "INCOMING",
      status: "COMPLETED",
      direction: "CREDIT",
      quoteId: quote.body.id,
      receivedAmount: { amount: 9_870, currency: { code: "USD" } },
      fees: 0,
      remittanceInformation: "Invoice 42",
    });
    expect(list.body.data[0]).not.toHaveProperty("sentAmount");
    const rows = await server.db.query<{ type: string }>(
      "SELECT type FROM transactions WHERE quote_id = $1 ORDER BY type",
      [quote.body.id],
    );
    expect(rows.map((r) => r.type)).toEqual(["INCOMING", "OUTGOING"]);
  });

  test("balance changes: sender amount = -totalSendingAmount with fee = -feesIncluded, receiver +totalReceivingAmount with fee 0, each naming its own transaction", async () => {
    const { from, to } = await funded(10_000);
    const quote = await server.client.post<Quote>(
      "/quotes",
      transfer(from, to, 10_000, { immediatelyExecute: true }),
    );
    const incoming = await server.db.query<{ id: string }>(
      "SELECT id FROM transactions WHERE quote_id = $1 AND type = 'INCOMING'",
      [quote.body.id],
    );
    const changes = await server.db.query<{
      account_id: string;
      amount: number;
      fee: number;
      transaction_id: string;
    }>(
      "SELECT account_id, amount, fee, transaction_id FROM balance_changes WHERE transaction_id IN ($1, $2) ORDER BY amount",
      [quote.body.transactionId, incoming[0]?.id],
    );
    expect(changes).toEqual([
      { account_id: from, amount: -10_000, fee: -130, transaction_id: quote.body.transactionId },
      { account_id: to, amount: 9_870, fee: 0, transaction_id: incoming[0]?.id },
    ]);
    // The principal (amount - fee) leaving the sender is exactly what the receiver gets.
    const [sent, received] = changes;
    expect((sent?.amount ?? 0) - (sent?.fee ?? 0)).toBe(-(received?.amount ?? 0));
    await ledgerInvariantHolds(server);
  });

  test("events: OUTGOING_PAYMENT.COMPLETED, INCOMING_PAYMENT.COMPLETED and a BALANCE_UPDATED per account, in webhook_events", async () => {
    const { from, to } = await funded(10_000);
    const quote = await server.client.post<Quote>(
      "/quotes",
      transfer(from, to, 500, { immediatelyExecute: true }),
    );
    const events = await server.db.query<{ type: string; body: string }>(
      "SELECT type, body FROM webhook_events WHERE body LIKE $1 ORDER BY type",
      [`%${quote.body.id}%`],
    );
    expect(events.map((e) => e.type)).toEqual(["INCOMING_PAYMENT.COMPLETED", "OUTGOING_PAYMENT.COMPLETED"]);
    const outgoing = JSON.parse(events[1]?.body ?? "{}");
    expect(outgoing.data).toMatchObject({
      id: quote.body.transactionId,
      type: "OUTGOING",
      status: "COMPLETED",
    });
    for (const [account, balance] of [
      [from, 10_000 - 500],
      [to, 500 - 35],
    ] as const) {
      const updates = await server.db.query<{ body: string }>(
        "SELECT body FROM webhook_events WHERE type = 'INTERNAL_ACCOUNT.BALANCE_UPDATED' AND body LIKE $1 ORDER BY created_at, id",
        [`%${account}%`],
      );
      expect(JSON.parse(updates.at(-1)?.body ?? "{}").data).toMatchObject({
        id: account,
        totalBalance: { amount: balance },
      });
    }
  });

  test("POST /quotes/{id}/execute (empty body) -> 200 COMPLETED; GET shows the same quote", async () => {
    const { from, to } = await funded(10_000);
    const quote = await server.client.post<Quote>("/quotes", transfer(from, to, 1_000));
    const res = await server.client.post<Quote>(`/quotes/${quote.body.id}/execute`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...quote.body, status: "COMPLETED", transactionId: res.body.transactionId });
    expect(res.body.transactionId).toMatch(/^Transaction:/);
    expect((await server.client.get(`/quotes/${quote.body.id}`)).body).toEqual(res.body);
    expect(await balanceOf(server, from)).toBe(9_000);
  });

  test("execute takes {scaFactor} and refuses unknown fields with 400 INVALID_INPUT", async () => {
    const { from, to } = await funded(10_000);
    const quote = await server.client.post<Quote>("/quotes", transfer(from, to, 1_000));
    const bad = await server.client.post(`/quotes/${quote.body.id}/execute`, { sca: "x" });
    expect(bad.status).toBe(400);
    const res = await server.client.post(`/quotes/${quote.body.id}/execute`, { scaFactor: "SMS_OTP" });
    expect(res.status).toBe(200);
  });
});
