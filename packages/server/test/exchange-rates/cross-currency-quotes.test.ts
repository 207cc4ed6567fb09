import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { convertMinorUnits, parseRate } from "../../src/exchange-rates/decimal.js";
import { currencySettings, startServer, type TestClient, type TestServer } from "../harness.js";
import type { ErrorBody, Quote } from "../quotes/helpers.js";
import { balanceOf, fund, newAccount, transfer } from "../quotes/helpers.js";

const START = new Date("2027-02-10T15:00:00.000Z");
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ serviceTime: START.toISOString() });
});
afterAll(() => server.close());

type Rates = { data: { exchangeRate: number; updatedAt: string }[] };

/** How long a rate is served (GET /exchange-rates shows when it was fetched: updatedAt). */
const RATE_TTL_MS = 5 * 60 * 1000;

/** A fresh platform supporting USD, EUR, MXN and USDB. */
async function platform(feeConfigs?: unknown[]): Promise<TestClient> {
  const client = server.client.as(await server.newPlatform());
  const res = await client.patch("/config", {
    supportedCurrencies: currencySettings("USD", "EUR", "MXN", "USDB"),
    ...(feeConfigs ? { feeConfigs } : {}),
  });
  expect(res.status).toBe(200);
  return client;
}

const account = (client: TestClient, currency: string) =>
  newAccount(server, { auth: client.credentials, currency, type: "INTERNAL_FIAT" });

async function cachedRate(client: TestClient, from: string, to: string) {
  const res = await client.get<Rates>(`/exchange-rates?sourceCurrency=${from}&destinationCurrency=${to}`);
  const rate = res.body.data[0];
  if (!rate) throw new Error(`no ${from}/${to} rate`);
  return rate;
}

/** floor(net × rate) in minor units, exactly, from the rate as the wire wrote it. */
const converted = (net: number, rate: number, decimals = { from: 2, to: 2 }) =>
  convertMinorUnits(net, parseRate(String(rate)), decimals, "down");

describe("cross-currency quotes between internal accounts", () => {
  test("a cross-currency quote uses the platform's cached rate, the one GET /exchange-rates shows", async () => {
    const client = await platform();
    const [usd, mxn] = [await account(client, "USD"), await account(client, "MXN")];
    const quote = await client.post<Quote>("/quotes", transfer(usd, mxn, 10_000));
    expect(quote.status).toBe(201);
    const rate = await cachedRate(client, "USD", "MXN");
    expect(quote.body.exchangeRate).toBe(rate.exchangeRate);
    expect(quote.body.sendingCurrency.code).toBe("USD");
    expect(quote.body.receivingCurrency.code).toBe("MXN");
    expect(quote.body.totalReceivingAmount).toBe(converted(10_000, rate.exchangeRate));
  });

  test("totalReceivingAmount = floor((totalSendingAmount − feesIncluded) × exchangeRate), fees from the USD source", async () => {
    const client = await platform([{ rail: "INTERNAL", variableRateBps: 25, fixedAmount: 30 }]);
    const [usd, mxn] = [await account(client, "USD"), await account(client, "MXN")];
    const quote = (await client.post<Quote>("/quotes", transfer(usd, mxn, 12_345))).body;
    expect(quote.totalSendingAmount).toBe(12_345);
    expect(quote.feesIncluded).toBe(30 + 31); // 30 + round-half-up(12,345 × 0.25 %)
    expect(quote.totalReceivingAmount).toBe(converted(12_345 - 61, quote.exchangeRate));
  });

  test("locked on RECEIVING: the smallest amount sent that delivers at least lockedCurrencyAmount", async () => {
    const client = await platform([{ rail: "INTERNAL", fixedAmount: 50 }]);
    const [usd, mxn] = [await account(client, "USD"), await account(client, "MXN")];
    const quote = (
      await client.post<Quote>("/quotes", transfer(usd, mxn, 100_000, { lockedCurrencySide: "RECEIVING" }))
    ).body;
    const net = quote.totalSendingAmount - quote.feesIncluded;
    expect(quote.feesIncluded).toBe(50);
    expect(quote.totalReceivingAmount).toBe(converted(net, quote.exchangeRate));
    expect(quote.totalReceivingAmount).toBeGreaterThanOrEqual(100_000);
    expect(converted(net - 1, quote.exchangeRate)).toBeLessThan(100_000);
  });

  test("a non-USD source pays no platform fee across currencies", async () => {
    const client = await platform([{ rail: "INTERNAL", fixedAmount: 50 }]);
    const [eur, usd] = [await account(client, "EUR"), await account(client, "USD")];
    const quote = (await client.post<Quote>("/quotes", transfer(eur, usd, 10_000))).body;
    expect([quote.feesIncluded, quote.platformFeesIncluded]).toEqual([0, 0]);
    expect(quote.totalReceivingAmount).toBe(converted(10_000, quote.exchangeRate));
  });

  test("USD to a USDB embedded wallet is at exactly 1: one cent is 10,000 units", async () => {
    const client = await platform();
    const usd = await account(client, "USD");
    const wallet = await newAccount(server, {
      auth: client.credentials,
      currency: "USDB",
      type: "EMBEDDED_WALLET",
      email: "fx@example.com",
    });
    const quote = (await client.post<Quote>("/quotes", transfer(usd, wallet, 250))).body;
    expect(quote.exchangeRate).toBe(1);
    expect(quote.totalReceivingAmount).toBe(2_500_000);
  });

  test("executing moves totalSendingAmount out and totalReceivingAmount in, each transaction in its own currency", async () => {
    const client = await platform();
    const [usd, mxn] = [await account(client, "USD"), await account(client, "MXN")];
    await fund(server, usd, 50_000, client.credentials);
    const quote = await client.post<Quote & { transactionId: string }>(
      "/quotes",
      transfer(usd, mxn, 20_000, { immediatelyExecute: true }),
    );
    expect(quote.status).toBe(201);
    expect(await balanceOf(server, usd, client.credentials)).toBe(30_000);
    expect(await balanceOf(server, mxn, client.credentials)).toBe(quote.body.totalReceivingAmount);
    const outgoing = await client.get<Record<string, unknown>>(`/transactions/${quote.body.transactionId}`);
    expect(outgoing.body).toMatchObject({
      sentAmount: { amount: 20_000, currency: { code: "USD" } },
      exchangeRate: quote.body.exchangeRate,
    });
    expect(outgoing.body.receivedAmount).toBeUndefined();
    const incoming = await client.get<{ data: Record<string, unknown>[] }>(
      `/transactions?type=INCOMING&accountIdentifier=${mxn}`,
    );
    expect(incoming.body.data[0]).toMatchObject({
      receivedAmount: { amount: quote.body.totalReceivingAmount, currency: { code: "MXN" } },
      exchangeRate: quote.body.exchangeRate,
    });
  });

  test("quotes reuse the cached rate for 5 minutes from its updatedAt; later quotes get the freshly fetched one", async () => {
    const client = await platform();
    const [usd, eur] = [await account(client, "USD"), await account(client, "EUR")];
    const first = (await client.post<Quote>("/quotes", transfer(usd, eur, 1_000))).body;
    const cached = await cachedRate(client, "USD", "EUR");
    expect(first.exchangeRate).toBe(cached.exchangeRate);
    const expiresAt = new Date(Date.parse(cached.updatedAt) + RATE_TTL_MS).toISOString();
    const res = await client.post("/sandbox/clock/advance", { to: expiresAt });
    expect(res.status).toBe(200);
    const second = (await client.post<Quote>("/quotes", transfer(usd, eur, 1_000))).body;
    const refreshed = await cachedRate(client, "USD", "EUR");
    expect(refreshed.updatedAt).toBe(expiresAt);
    expect(second.exchangeRate).toBe(refreshed.exchangeRate);
  });
});

describe("errors", () => {
  test("a corridor without a rate (EUR to MXN) -> 400 QUOTE_RATE_UNAVAILABLE, nothing created", async () => {
    const client = await platform();
    const [eur, mxn] = [await account(client, "EUR"), await account(client, "MXN")];
    await fund(server, eur, 10_000, client.credentials);
    const res = await client.post<ErrorBody>(
      "/quotes",
      transfer(eur, mxn, 1_000, { immediatelyExecute: true }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "QUOTE_RATE_UNAVAILABLE",
      reason: "No EUR to MXN exchange rate is available now.",
    });
    const quotes = await server.db.query("SELECT id FROM quotes WHERE platform_id = $1", [
      client.credentials.platformId,
    ]);
    expect(quotes).toEqual([]);
  });

  test("an amount that converts to less than one receiving minor unit -> 400 AMOUNT_OUT_OF_RANGE", async () => {
    const client = await platform();
    const [mxn, usd] = [await account(client, "MXN"), await account(client, "USD")];
    const res = await client.post<ErrorBody>("/quotes", transfer(mxn, usd, 1));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("AMOUNT_OUT_OF_RANGE");
  });

  test("a RECEIVING amount that needs more than the single-transaction maximum -> 400 TRANSACTION_SIZE_LIMIT_EXCEEDED", async () => {
    const client = await platform();
    const [usd, mxn] = [await account(client, "USD"), await account(client, "MXN")];
    const res = await client.post<ErrorBody>(
      "/quotes",
      transfer(usd, mxn, 9_000_000_000_000, { lockedCurrencySide: "RECEIVING" }),
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("TRANSACTION_SIZE_LIMIT_EXCEEDED");
  });
});
