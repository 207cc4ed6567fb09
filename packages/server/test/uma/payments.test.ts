import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { type Credentials, startServer, type TestServer } from "../harness.js";
import { balanceOf, type ErrorBody, fund, type Quote } from "../quotes/helpers.js";

// A UMA payment between two platforms of one paysvc over real HTTP: lookup, quote (the pay request),
// execute, settlement over the sandbox settlement layer, and the money on both sides.

type Transaction = {
  id: string;
  type: string;
  status: string;
  source: Record<string, unknown>;
  destination: Record<string, unknown>;
  receivedAmount?: { amount: number };
  reconciliationInstructions?: { transactionHash?: string };
  failureReason?: string;
};

let server: TestServer;
let receiver: Credentials;
beforeAll(async () => {
  server = await startServer();
  receiver = await server.newPlatform();
});
afterAll(() => server.close());

/** A customer of `auth`'s platform: its UMA address and USD account. */
async function customerOf(auth?: Credentials): Promise<{ address: string; account: string }> {
  const options = auth ? { auth } : {};
  const customer = await server.client.post<{ id: string; umaAddress: string }>(
    "/customers",
    { customerType: "INDIVIDUAL", fullName: "Ana Souza", ...withEndUserTerms },
    options,
  );
  const accounts = await server.client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${customer.body.id}&currency=USD`,
    options,
  );
  return { address: customer.body.umaAddress, account: accounts.body.data[0]?.id as string };
}

async function quoteTo(address: string, from: string, amount: number, side = "SENDING", extra = {}) {
  const lookup = await server.client.get<{ lookupId: string }>(
    `/receiver/uma/${encodeURIComponent(address)}`,
  );
  expect(lookup.status).toBe(200);
  return server.client.post<Quote & ErrorBody>("/quotes", {
    lookupId: lookup.body.lookupId,
    source: { sourceType: "ACCOUNT", accountId: from },
    destination: { destinationType: "UMA_ADDRESS", umaAddress: address, currency: "USD" },
    lockedCurrencySide: side,
    lockedCurrencyAmount: amount,
    ...extra,
  });
}

describe("a UMA payment between two platforms", () => {
  test("the quote carries the pay request's amounts; executed, it settles: the sender debited, the receiver credited, the settlement leg's hash recorded", async () => {
    const sender = await customerOf();
    const payee = await customerOf(receiver);
    await fund(server, sender.account, 5_000);
    const quote = await quoteTo(payee.address, sender.account, 1_250);
    expect(quote.status).toBe(201);
    expect([quote.body.totalSendingAmount, quote.body.totalReceivingAmount]).toEqual([1_250, 1_250]);
    expect(quote.body.destination).toEqual({
      destinationType: "UMA_ADDRESS",
      umaAddress: payee.address,
      currency: "USD",
    });
    const executed = await server.client.post<Quote>(`/quotes/${quote.body.id}/execute`, {});
    expect([executed.status, executed.body.status]).toEqual([200, "PROCESSING"]);
    await server.jobs.runDue();
    const sent = await server.client.get<Transaction>(`/transactions/${quote.body.transactionId}`);
    expect(sent.body.status).toBe("COMPLETED");
    expect(sent.body.reconciliationInstructions?.transactionHash).toMatch(/^[0-9a-f]{64}$/);
    expect(sent.body.destination).toEqual({
      destinationType: "UMA_ADDRESS",
      umaAddress: payee.address,
      currency: "USD",
    });
    expect(await balanceOf(server, sender.account)).toBe(3_750);
    expect(await balanceOf(server, payee.account, receiver)).toBe(1_250);
    const incoming = await server.client.get<{ data: Transaction[] }>(
      `/transactions?accountIdentifier=${payee.account}`,
      { auth: receiver },
    );
    const [received] = incoming.body.data;
    expect(received?.type).toBe("INCOMING");
    expect(received?.status).toBe("COMPLETED");
    expect(received?.source).toMatchObject({ sourceType: "UMA_ADDRESS" });
    expect(received?.receivedAmount?.amount).toBe(1_250);
  });

  test("a RECEIVING lock delivers exactly the locked amount", async () => {
    const sender = await customerOf();
    const payee = await customerOf(receiver);
    await fund(server, sender.account, 5_000);
    const quote = await quoteTo(payee.address, sender.account, 999, "RECEIVING");
    expect([quote.status, quote.body.totalReceivingAmount, quote.body.totalSendingAmount]).toEqual([
      201, 999, 999,
    ]);
  });

  test("insufficient funds at execution -> 400 INSUFFICIENT_FUNDS, nothing debited, the quote stays PENDING", async () => {
    const sender = await customerOf();
    const payee = await customerOf(receiver);
    const quote = await quoteTo(payee.address, sender.account, 100);
    const executed = await server.client.post<ErrorBody>(`/quotes/${quote.body.id}/execute`, {});
    expect([executed.status, executed.body.code]).toEqual([400, "INSUFFICIENT_FUNDS"]);
    expect((await server.client.get<Quote>(`/quotes/${quote.body.id}`)).body.status).toBe("PENDING");
  });

  test("a lookupId of another address -> 400 INVALID_INPUT naming lookupId; an unknown one -> 404 LOOKUP_REQUEST_NOT_FOUND", async () => {
    const sender = await customerOf();
    const payee = await customerOf(receiver);
    const other = await customerOf(receiver);
    const lookup = await server.client.get<{ lookupId: string }>(
      `/receiver/uma/${encodeURIComponent(other.address)}`,
    );
    const body = (lookupId: string) => ({
      lookupId,
      source: { sourceType: "ACCOUNT", accountId: sender.account },
      destination: { destinationType: "UMA_ADDRESS", umaAddress: payee.address, currency: "USD" },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 100,
    });
    const mismatch = await server.client.post<ErrorBody>("/quotes", body(lookup.body.lookupId));
    expect([mismatch.status, mismatch.body.details?.errors[0]?.field]).toEqual([400, "lookupId"]);
    const unknown = await server.client.post<ErrorBody>(
      "/quotes",
      body("Lookup:00000000-0000-4000-8000-000000000000"),
    );
    expect([unknown.status, unknown.body.code]).toEqual([404, "LOOKUP_REQUEST_NOT_FOUND"]);
  });

  test("a currency the receiver does not take -> 400 INVALID_INPUT naming destination.currency", async () => {
    const sender = await customerOf();
    const payee = await customerOf(receiver);
    const lookup = await server.client.get<{ lookupId: string }>(
      `/receiver/uma/${encodeURIComponent(payee.address)}`,
    );
    const res = await server.client.post<ErrorBody>("/quotes", {
      lookupId: lookup.body.lookupId,
      source: { sourceType: "ACCOUNT", accountId: sender.account },
      destination: { destinationType: "UMA_ADDRESS", umaAddress: payee.address, currency: "EUR" },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 100,
    });
    expect([res.status, res.body.details?.errors[0]?.field]).toEqual([400, "destination.currency"]);
  });

  test("immediatelyExecute pays at once: the quote answers PROCESSING and settles on the next job run", async () => {
    const sender = await customerOf();
    const payee = await customerOf(receiver);
    await fund(server, sender.account, 1_000);
    const quote = await quoteTo(payee.address, sender.account, 400, "SENDING", { immediatelyExecute: true });
    expect([quote.status, quote.body.status]).toEqual([201, "PROCESSING"]);
    await server.jobs.runDue();
    expect(await balanceOf(server, payee.account, receiver)).toBe(400);
  });
});

describe("pay requests to the sandbox counterparty", () => {
  const CP = "counterparty.sandbox.localhost";
  const quoteToCounterparty = async (user: string, currency = "USD") => {
    const sender = await customerOf();
    await fund(server, sender.account, 1_000);
    return server.client.post<Quote & ErrorBody>("/quotes", {
      source: { sourceType: "ACCOUNT", accountId: sender.account },
      destination: { destinationType: "UMA_ADDRESS", umaAddress: `$${user}@${CP}`, currency },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 500,
    });
  };

  test("$success.eur is paid in EUR without a lookupId (the lookup is made with the quote) and settles", async () => {
    const quote = await quoteToCounterparty("success.eur", "EUR");
    expect([quote.status, quote.body.receivingCurrency.code, quote.body.totalSendingAmount]).toEqual([
      201,
      "EUR",
      500,
    ]);
    expect(quote.body.totalReceivingAmount).toBeGreaterThan(300);
    await server.client.post(`/quotes/${quote.body.id}/execute`, {});
    await server.jobs.runDue();
    const sent = await server.client.get<Transaction>(`/transactions/${quote.body.transactionId}`);
    expect(sent.body.status).toBe("COMPLETED");
  });

  const refusals: [string, number, string][] = [
    ["rejects.sender", 400, "SENDER_NOT_ACCEPTED"],
    ["payreq.fails", 424, "PAYREQ_REQUEST_FAILED"],
    ["payreq.malformed", 400, "PARSE_PAYREQ_RESPONSE_ERROR"],
    ["payreq.unsigned", 400, "INVALID_PAYREQ_RESPONSE"],
    ["duplicate", 409, "DUPLICATE_PAY_REQUEST"],
    ["unknown.receiver", 400, "INVALID_RECEIVER"],
    ["payee.data.unknown", 501, "UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY"],
  ];
  test.each(refusals)("$%s@counterparty -> %i %s", async (user, status, code) => {
    const res = await quoteToCounterparty(user);
    expect([res.status, res.body.code]).toEqual([status, code]);
  });
});

describe("POST /sandbox/uma/receive", () => {
  test("the counterparty pays a customer by UMA: one INCOMING COMPLETED from its address, one balance change", async () => {
    const payee = await customerOf();
    const res = await server.client.post<Transaction>("/sandbox/uma/receive", {
      senderUmaAddress: "$success.usd@counterparty.sandbox.localhost",
      receiverUmaAddress: payee.address,
      receivingCurrencyCode: "USD",
      receivingCurrencyAmount: 1_000,
    });
    expect([res.status, res.body.type, res.body.status]).toEqual([200, "INCOMING", "COMPLETED"]);
    expect(res.body.source).toEqual({
      sourceType: "UMA_ADDRESS",
      umaAddress: "$success.usd@counterparty.sandbox.localhost",
      currency: "USD",
    });
    expect(await balanceOf(server, payee.account)).toBe(1_000);
  });

  test("a receiver named by customerId; a currency the customer holds no account in -> 400 INVALID_CURRENCY", async () => {
    const payee = await customerOf();
    const customers = await server.client.get<{ data: { id: string; umaAddress: string }[] }>(
      "/customers?limit=100",
    );
    const customerId = customers.body.data.find((c) => c.umaAddress === payee.address)?.id;
    const res = await server.client.post<ErrorBody>("/sandbox/uma/receive", {
      senderUmaAddress: "$success.usd@counterparty.sandbox.localhost",
      customerId,
      receivingCurrencyCode: "EUR",
      receivingCurrencyAmount: 1_000,
    });
    expect([res.status, res.body.code]).toEqual([400, "INVALID_CURRENCY"]);
  });

  test("a sender that is not the counterparty's -> 400 INVALID_INPUT naming senderUmaAddress", async () => {
    const payee = await customerOf();
    const res = await server.client.post<ErrorBody>("/sandbox/uma/receive", {
      senderUmaAddress: "$someone@example.com",
      receiverUmaAddress: payee.address,
      receivingCurrencyCode: "USD",
      receivingCurrencyAmount: 1_000,
    });
    expect([res.status, res.body.details?.errors[0]?.field]).toEqual([400, "senderUmaAddress"]);
  });
});
