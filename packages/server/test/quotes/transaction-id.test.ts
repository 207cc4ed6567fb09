import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { payer, payout } from "../payouts/helpers.js";
import { type ErrorBody, fund, newAccount, type Quote, transfer } from "./helpers.js";

// Interface, POST /quotes: "returns a Quote whose transactionId tracks the transaction". The id is reserved
// when the quote is created; the transaction exists from execution on (docs/decisions.md).

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const TRANSACTION_ID = /^Transaction:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function pendingTransfer() {
  const from = await newAccount(server);
  const to = await newAccount(server);
  await fund(server, from, 10_000);
  const quote = await server.client.post<Quote>("/quotes", transfer(from, to, 1_000));
  expect(quote.status, quote.text).toBe(201);
  return { from, to, quote: quote.body };
}

describe("every quote has its transactionId from creation", () => {
  test("a quote that is not executed has a transactionId, and GET /quotes/{id} shows the same one", async () => {
    const { quote } = await pendingTransfer();
    expect(quote.status).toBe("PENDING");
    expect(quote.transactionId).toMatch(TRANSACTION_ID);
    const read = await server.client.get<Quote>(`/quotes/${quote.id}`);
    expect(read.body.transactionId).toBe(quote.transactionId);
  });

  test("before execution GET /transactions/{transactionId} is 404 TRANSACTION_NOT_FOUND; after it, the transaction has that id", async () => {
    const { quote } = await pendingTransfer();
    const before = await server.client.get<ErrorBody>(`/transactions/${quote.transactionId}`);
    expect(before.status).toBe(404);
    expect(before.body.code).toBe("TRANSACTION_NOT_FOUND");
    const executed = await server.client.post<Quote>(`/quotes/${quote.id}/execute`);
    expect(executed.status, executed.text).toBe(200);
    expect(executed.body.transactionId).toBe(quote.transactionId);
    const after = await server.client.get<{ id: string; type: string; status: string; quoteId: string }>(
      `/transactions/${quote.transactionId}`,
    );
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ id: quote.transactionId, type: "OUTGOING", status: "COMPLETED" });
  });

  test("an immediately executed quote's transactionId is its OUTGOING transaction", async () => {
    const from = await newAccount(server);
    const to = await newAccount(server);
    await fund(server, from, 10_000);
    const quote = await server.client.post<Quote>(
      "/quotes",
      transfer(from, to, 1_000, { immediatelyExecute: true }),
    );
    expect(quote.status).toBe(201);
    const transaction = await server.client.get<{ id: string; type: string }>(
      `/transactions/${quote.body.transactionId}`,
    );
    expect(transaction.body).toMatchObject({ id: quote.body.transactionId, type: "OUTGOING" });
  });

  test("a payout quote's transactionId is the payout transaction once executed", async () => {
    const { accountId, externalId } = await payer(server.client, { funds: 10_000 });
    const quote = await server.client.post<Quote>("/quotes", payout(accountId, externalId, 1_000));
    expect(quote.body.transactionId).toMatch(TRANSACTION_ID);
    expect((await server.client.get(`/transactions/${quote.body.transactionId}`)).status).toBe(404);
    const executed = await server.client.post<Quote>(`/quotes/${quote.body.id}/execute`);
    expect(executed.status, executed.text).toBe(200);
    const transaction = await server.client.get<{ id: string; type: string }>(
      `/transactions/${quote.body.transactionId}`,
    );
    expect(transaction.body).toMatchObject({ id: quote.body.transactionId, type: "OUTGOING" });
  });

  test("a quote that expires unexecuted keeps its transactionId, which never names a transaction", async () => {
    const { quote } = await pendingTransfer();
    const now = await server.client.get<{ now: string }>("/sandbox/clock");
    const later = new Date(Date.parse(now.body.now) + 6 * 60_000).toISOString();
    expect((await server.client.post("/sandbox/clock/advance", { to: later })).status).toBe(200);
    const expired = await server.client.get<Quote>(`/quotes/${quote.id}`);
    expect(expired.body).toMatchObject({ status: "EXPIRED", transactionId: quote.transactionId });
    expect((await server.client.get(`/transactions/${quote.transactionId}`)).status).toBe(404);
  });

  test("two quotes never share a transactionId", async () => {
    const [one, two] = [await pendingTransfer(), await pendingTransfer()];
    expect(one.quote.transactionId).not.toBe(two.quote.transactionId);
  });
});
