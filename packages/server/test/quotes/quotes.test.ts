import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { currencySettings, startServer, type TestServer } from "../harness.js";
import { type ErrorBody, fund, newAccount, type Quote, transfer } from "./helpers.js";

let server: TestServer;
let a: string;
let b: string;
beforeAll(async () => {
  server = await startServer();
  await server.client.patch("/config", { supportedCurrencies: currencySettings("USD", "EUR", "USDB") });
  a = await newAccount(server);
  b = await newAccount(server);
});
afterAll(() => server.close());

describe("POST /quotes: a same-currency transfer between internal accounts (conventions §3.3)", () => {
  test("a quote is 201 PENDING with the price, expiresAt = createdAt + 5 minutes, and its reserved transactionId", async () => {
    const res = await server.client.post<Quote>("/quotes", transfer(a, b, 10_000, { description: "rent" }));
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^Quote:[0-9a-f-]{36}$/);
    const usd = { code: "USD", name: "United States Dollar", symbol: "$", decimals: 2 };
    expect(res.body).toEqual({
      id: res.body.id,
      status: "PENDING",
      createdAt: res.body.createdAt,
      expiresAt: new Date(Date.parse(res.body.createdAt) + 5 * 60_000).toISOString(),
      source: { sourceType: "ACCOUNT", accountId: a, customerId: expect.stringMatching(/^Customer:/) },
      destination: { destinationType: "ACCOUNT", accountId: b, currency: "USD" },
      sendingCurrency: usd,
      receivingCurrency: usd,
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 10_000,
      totalSendingAmount: 10_000,
      totalReceivingAmount: 10_000,
      exchangeRate: 1,
      feesIncluded: 0,
      platformFeesIncluded: 0,
      transactionId: expect.stringMatching(/^Transaction:[0-9a-f-]{36}$/),
      description: "rent",
    });
    const read = await server.client.get(`/quotes/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  test("a quote does not check or reserve funds: an unfunded source can be quoted", async () => {
    const res = await server.client.post<Quote>("/quotes", transfer(a, b, 1));
    expect(res.status).toBe(201);
  });

  test("a platform-owned account sends like any other; its source carries no customerId", async () => {
    const platform = await server.client.get<{ data: { id: string }[] }>(
      "/platform/internal-accounts?currency=USD",
    );
    const owned = platform.body.data[0]?.id ?? "";
    await fund(server, owned, 500);
    const res = await server.client.post<Quote>(
      "/quotes",
      transfer(owned, b, 500, { immediatelyExecute: true }),
    );
    expect(res.status).toBe(201);
    expect(res.body.source).toEqual({ sourceType: "ACCOUNT", accountId: owned });
    expect(res.body.status).toBe("COMPLETED");
  });

  test("source == destination -> 400 SELF_PAYMENT", async () => {
    const res = await server.client.post("/quotes", transfer(a, a, 100));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "SELF_PAYMENT",
      reason: "The source and destination are the same account.",
    });
  });

  test("an unknown destination.currency code -> 400 INVALID_CURRENCY", async () => {
    const body = transfer(a, b, 100, {
      destination: { destinationType: "ACCOUNT", accountId: b, currency: "XYZ" },
    });
    const res = await server.client.post("/quotes", body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "INVALID_CURRENCY", reason: "Unknown currency XYZ." });
  });

  test("a destination.currency other than the destination account's -> 400 INVALID_INPUT on destination.currency", async () => {
    const body = transfer(a, b, 100, {
      destination: { destinationType: "ACCOUNT", accountId: b, currency: "EUR" },
    });
    const res = await server.client.post<ErrorBody>("/quotes", body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["destination.currency"]);
  });

  test("accounts in different currencies -> 201, priced at the cached rate (test/exchange-rates/cross-currency-quotes)", async () => {
    const eur = await newAccount(server, { currency: "EUR" });
    const res = await server.client.post<Quote>("/quotes", transfer(a, eur, 100));
    expect(res.status).toBe(201);
    expect([res.body.sendingCurrency.code, res.body.receivingCurrency.code]).toEqual(["USD", "EUR"]);
  });

  test("a UMA_ADDRESS destination is quoted through the receiver's VASP: one that cannot be reached -> 424 LNURLP_REQUEST_FAILED (test/uma)", async () => {
    const override = {
      destination: {
        destinationType: "UMA_ADDRESS",
        umaAddress: "$bob@unreachable.localhost",
        currency: "USD",
      },
    };
    const res = await server.client.post<ErrorBody>("/quotes", { ...transfer(a, b, 100), ...override });
    expect([res.status, res.body.code]).toEqual([424, "LNURLP_REQUEST_FAILED"]);
  });

  test("immediatelyExecute with an EMBEDDED_WALLET source -> 400 INVALID_INPUT on immediatelyExecute", async () => {
    const wallet = await newAccount(server, { currency: "USDB", email: "w1@example.com" });
    const other = await newAccount(server, { currency: "USDB", email: "w2@example.com" });
    const res = await server.client.post<ErrorBody>(
      "/quotes",
      transfer(wallet, other, 100, { immediatelyExecute: true }),
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["immediatelyExecute"]);
    // Without it, the quote waits for a signed execute (test/payments/off-ramp.test.ts).
    const quoted = await server.client.post<Quote>("/quotes", transfer(wallet, other, 100));
    expect(quoted.status).toBe(201);
  });

  test("the single-transaction maximum (USD 1,000,000.00) -> 400 TRANSACTION_SIZE_LIMIT_EXCEEDED above it", async () => {
    const atLimit = await server.client.post("/quotes", transfer(a, b, 100_000_000));
    expect(atLimit.status).toBe(201);
    const res = await server.client.post("/quotes", transfer(a, b, 100_000_001));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "TRANSACTION_SIZE_LIMIT_EXCEEDED",
      reason: "totalSendingAmount 100000001 exceeds the single-transaction maximum of 100000000.",
    });
  });

  test("source.customerId that does not own the source account -> 400 INVALID_INPUT on source.customerId", async () => {
    const body = transfer(a, b, 100);
    const res = await server.client.post<ErrorBody>("/quotes", {
      ...body,
      source: { ...body.source, customerId: "Customer:01a2031b-3af6-74b7-af52-45f72eabe452" },
    });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["source.customerId"]);
  });
});
