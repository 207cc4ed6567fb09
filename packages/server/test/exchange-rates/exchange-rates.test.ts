import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { currency as currencyOf } from "../../src/core/money.js";
import { convertMinorUnits, formatRate, parseRate } from "../../src/exchange-rates/decimal.js";
import { pricedCurrencies, sandboxRateSource } from "../../src/exchange-rates/sandbox-source.js";
import type { ExchangeRate, ExchangeRateListResponse } from "../../src/exchange-rates/schemas.js";
import { corridorFor, railsFor } from "../../src/rails/corridors.js";
import { accountInfo, corridors } from "../external-accounts/corridor-examples.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { payer } from "../payouts/helpers.js";

type ErrorBody = { code: string; reason: string; details?: { errors: { field: string; message: string }[] } };
type Quote = {
  exchangeRate: number;
  totalSendingAmount: number;
  totalReceivingAmount: number;
  feesIncluded: number;
  platformFeesIncluded: number;
  paymentRail: string;
};

const START = new Date("2027-02-10T15:00:00.000Z");
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ serviceTime: START.toISOString() });
});
afterAll(() => server.close());

/** A fresh platform (its own cache, clock and feeConfigs). */
async function platform(): Promise<TestClient> {
  return server.client.as(await server.newPlatform());
}

const rates = (client: TestClient, query = "") =>
  client.get<ExchangeRateListResponse>(`/exchange-rates${query}`);
const row = (list: ExchangeRateListResponse, rail: string) =>
  list.data.find((r) => r.destinationPaymentRail === rail) as ExchangeRate;

async function advance(client: TestClient, to: Date) {
  expect((await client.post("/sandbox/clock/advance", { to: to.toISOString() })).status).toBe(200);
}

/** receivingAmount as the quote computes it: floor((sent − fees) × rate) in receiving minor units. */
const converted = (r: ExchangeRate) =>
  convertMinorUnits(
    r.sendingAmount - r.fees.total,
    parseRate(String(r.exchangeRate)),
    { from: r.sourceCurrency.decimals, to: r.destinationCurrency.decimals },
    "down",
  );

describe("listing", () => {
  test("each corridor with a rate is listed once per destination rail, priced for sendingAmount (default 10000)", async () => {
    const res = await rates(await platform(), "?sourceCurrency=USD&destinationCurrency=MXN");
    expect(res.status).toBe(200);
    expect(res.body.data.map((r) => r.destinationPaymentRail)).toEqual(railsFor("MXN"));
    const rate = sandboxRateSource.rate("USD", "MXN", START);
    for (const r of res.body.data) {
      expect(r).toEqual({
        sourceCurrency: currencyOf("USD"),
        sendingAmount: 10_000,
        minSendingAmount: expect.any(Number),
        maxSendingAmount: expect.any(Number),
        destinationCurrency: currencyOf("MXN"),
        destinationPaymentRail: r.destinationPaymentRail,
        receivingAmount: converted(r),
        exchangeRate: rate && Number(formatRate(rate)),
        fees: { fixed: 0, total: 0 },
        updatedAt: START.toISOString(),
      });
    }
  });

  test("without filters: every pair with a rate into a payout corridor, over each of its rails, in code then rail order; a rail whose minimum is above sendingAmount is left out", async () => {
    const client = await platform();
    const res = await rates(client);
    const key = (r: ExchangeRate) =>
      `${r.sourceCurrency.code}>${r.destinationCurrency.code}>${r.destinationPaymentRail}`;
    const expected = [...pricedCurrencies].sort().flatMap((source) =>
      [...pricedCurrencies]
        .sort()
        .filter((d) => d !== source && corridorFor(d) && sandboxRateSource.rate(source, d, START))
        .flatMap((d) => railsFor(d).map((rail) => `${source}>${d}>${rail}`)),
    );
    const listed = res.body.data.map(key);
    expect(listed).toEqual(expected.filter((k) => listed.includes(k)));
    for (const r of res.body.data) expect(r.receivingAmount).toBe(converted(r));
    // What is left out (IDR 100.00 or USDC 0.01 is less than a cent, a euro cent…) is there for a larger amount.
    const missing = expected.filter((k) => !listed.includes(k));
    expect(missing.length).toBeGreaterThan(0);
    for (const pair of new Set(missing.map((k) => k.split(">").slice(0, 2).join(">")))) {
      const [source, destination] = pair.split(">");
      const larger = await rates(
        client,
        `?sourceCurrency=${source}&destinationCurrency=${destination}&sendingAmount=100000000`,
      );
      for (const r of larger.body.data.filter((r) => missing.includes(key(r))))
        expect(r.minSendingAmount).toBeGreaterThan(10_000);
      expect(
        missing.filter((k) => k.startsWith(`${pair}>`)).every((k) => larger.body.data.map(key).includes(k)),
      ).toBe(true);
    }
  });

  test("destinationCurrency repeats (form, exploded) to ask for several currencies", async () => {
    const res = await rates(
      await platform(),
      "?sourceCurrency=USD&destinationCurrency=MXN&destinationCurrency=INR",
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((r) => `${r.destinationCurrency.code}:${r.destinationPaymentRail}`)).toEqual([
      ...railsFor("INR").map((rail) => `INR:${rail}`),
      ...railsFor("MXN").map((rail) => `MXN:${rail}`),
    ]);
  });

  test("sendingAmount prices every row: receivingAmount = floor((sendingAmount − fees.total) × exchangeRate)", async () => {
    const res = await rates(
      await platform(),
      "?sourceCurrency=EUR&destinationCurrency=USD&sendingAmount=123457",
    );
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const r of res.body.data) {
      expect(r.sendingAmount).toBe(123_457);
      expect(r.receivingAmount).toBe(converted(r));
    }
  });

  test("a corridor without a rate (BTC, a cross of two non-dollar currencies) or without a payout corridor (stablecoins) is not listed", async () => {
    const client = await platform();
    expect((await rates(client, "?sourceCurrency=BTC")).body).toEqual({ data: [] });
    expect((await rates(client, "?sourceCurrency=EUR&destinationCurrency=MXN")).body).toEqual({ data: [] });
    expect((await rates(client, "?sourceCurrency=USD&destinationCurrency=USDC")).body).toEqual({ data: [] });
    const fromEur = await rates(client, "?sourceCurrency=EUR");
    expect(new Set(fromEur.body.data.map((r) => r.destinationCurrency.code))).toEqual(new Set(["USD"]));
  });

  test("a pair of the same currency is not listed", async () => {
    const res = await rates(await platform(), "?sourceCurrency=USD&destinationCurrency=USD");
    expect(res.body).toEqual({ data: [] });
  });

  test("dollar stablecoins are pegged to USD at exactly 1, minor units converted by their decimals", async () => {
    const res = await rates(
      await platform(),
      "?sourceCurrency=USDC&destinationCurrency=USD&sendingAmount=2500000",
    );
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const r of res.body.data) {
      expect(r.exchangeRate).toBe(1);
      expect(r.receivingAmount).toBe(250); // 2.5 USDC (6 decimals) -> 250 cents
    }
  });
});

describe("fees and amounts match a quote", () => {
  const mxn = corridors.find((c) => c.accountType === "MXN_ACCOUNT");

  test("fees and receivingAmount are what a payout quote of sendingAmount over that rail charges and delivers", async () => {
    if (!mxn) throw new Error("no MXN corridor example");
    const client = await platform();
    const feeConfigs = [{ rail: "SPEI", variableRateBps: 25, fixedAmount: 30 }];
    expect((await client.patch("/config", { feeConfigs })).status).toBe(200);
    const { customerId, accountId } = await payer(client, { funds: 1_000_000 });
    const external = await client.post<{ id: string }>("/customers/external-accounts", {
      customerId,
      currency: "MXN",
      accountInfo: accountInfo(mxn, mxn.withSuffix("000")),
    });
    expect(external.status, JSON.stringify(external.body)).toBe(201);
    const listed = await rates(client, "?sourceCurrency=USD&destinationCurrency=MXN&sendingAmount=123456");
    const spei = row(listed.body, "SPEI");
    expect(spei.fees).toEqual({ fixed: 30, total: 30 + 309 }); // 123456 × 25 bps = 308.64 -> 309
    expect(row(listed.body, "SWIFT").fees).toEqual({ fixed: 0, total: 0 });
    const quote = await client.post<Quote>("/quotes", {
      source: { sourceType: "ACCOUNT", accountId },
      destination: { destinationType: "ACCOUNT", accountId: external.body.id, paymentRail: "SPEI" },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 123_456,
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(201);
    expect(quote.body).toMatchObject({
      paymentRail: "SPEI",
      exchangeRate: spei.exchangeRate,
      totalSendingAmount: spei.sendingAmount,
      feesIncluded: spei.fees.total,
      platformFeesIncluded: spei.fees.total,
      totalReceivingAmount: spei.receivingAmount,
    });
  });

  test("platform fees apply to USD sources only: other sources list zero fees on a rail with a feeConfigs entry", async () => {
    const client = await platform();
    expect((await client.patch("/config", { feeConfigs: [{ rail: "ACH", fixedAmount: 100 }] })).status).toBe(
      200,
    );
    const fromUsdc = await rates(client, "?sourceCurrency=USDC&destinationCurrency=USD");
    expect(row(fromUsdc.body, "ACH").fees).toEqual({ fixed: 0, total: 0 });
    const fromEur = await rates(client, "?sourceCurrency=EUR&destinationCurrency=USD");
    expect(row(fromEur.body, "ACH").fees).toEqual({ fixed: 0, total: 0 });
  });

  test("minSendingAmount is the smallest amount delivering one receiving minor unit after fees; below it the rail is not listed", async () => {
    const client = await platform();
    const feeConfigs = [{ rail: "SPEI", fixedAmount: 30 }];
    expect((await client.patch("/config", { feeConfigs })).status).toBe(200);
    const first = row((await rates(client, "?sourceCurrency=USD&destinationCurrency=MXN")).body, "SPEI");
    const at = await rates(
      client,
      `?sourceCurrency=USD&destinationCurrency=MXN&sendingAmount=${first.minSendingAmount}`,
    );
    expect(row(at.body, "SPEI").receivingAmount).toBeGreaterThanOrEqual(1);
    expect(row(at.body, "SPEI").fees.total).toBe(30);
    const below = await rates(
      client,
      `?sourceCurrency=USD&destinationCurrency=MXN&sendingAmount=${first.minSendingAmount - 1}`,
    );
    expect(below.body.data.map((r) => r.destinationPaymentRail)).not.toContain("SPEI");
    const zero = await rates(client, "?sourceCurrency=USD&destinationCurrency=MXN&sendingAmount=0");
    expect(zero.body).toEqual({ data: [] });
  });

  test("maxSendingAmount is the largest amount the rail takes (UPI's per-payment cap); above it the rail is not listed", async () => {
    const client = await platform();
    const first = row((await rates(client, "?sourceCurrency=USD&destinationCurrency=INR")).body, "UPI");
    const cap = 100_000 * 100; // INR 100,000 in paise
    const at = await rates(
      client,
      `?sourceCurrency=USD&destinationCurrency=INR&sendingAmount=${first.maxSendingAmount}`,
    );
    expect(row(at.body, "UPI").receivingAmount).toBeLessThanOrEqual(cap);
    const above = await rates(
      client,
      `?sourceCurrency=USD&destinationCurrency=INR&sendingAmount=${first.maxSendingAmount + 1}`,
    );
    expect(above.body.data.map((r) => r.destinationPaymentRail)).not.toContain("UPI");
    expect(above.body.data.map((r) => r.destinationPaymentRail)).toContain("NEFT");
    // NEFT has no per-payment cap: only the INR corridor's maximum and USD's bound it.
    expect(row(at.body, "NEFT").maxSendingAmount).toBeGreaterThan(first.maxSendingAmount);
  });
});

describe("errors", () => {
  test.each([
    ["sourceCurrency=XYZ", "sourceCurrency"],
    ["destinationCurrency=XYZ", "destinationCurrency"],
    ["destinationCurrency=MXN&destinationCurrency=XYZ", "destinationCurrency[1]"],
  ])(
    "an unknown currency code (%s) is 400 INVALID_CURRENCY with a FieldError on %s",
    async (query, field) => {
      const res = await server.client.get<ErrorBody>(`/exchange-rates?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("INVALID_CURRENCY");
      expect(res.body.details?.errors.map((e) => e.field)).toEqual([field]);
    },
  );

  test.each([
    ["sendingAmount=-1", "sendingAmount"],
    ["sendingAmount=1.5", "sendingAmount"],
    ["sendingAmount=ten", "sendingAmount"],
    ["sendingAmount=9000000000000001", "sendingAmount"],
    ["sourceCurrency=", "sourceCurrency"],
    ["destinationCurrency=", "destinationCurrency"],
    ["currency=USD", "currency"],
  ])("a bad parameter (%s) is 400 INVALID_INPUT with a FieldError on %s", async (query, field) => {
    const res = await server.client.get<ErrorBody>(`/exchange-rates?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors.map((e) => e.field)).toEqual([field]);
  });

  test("without credentials it is 401 UNAUTHORIZED", async () => {
    const res = await server.client.get<ErrorBody>("/exchange-rates", { auth: null });
    expect(res.status).toBe(401);
  });
});

describe("caching", () => {
  const eurUsd = "?sourceCurrency=EUR&destinationCurrency=USD";

  test("the same rate is served for 5 minutes from updatedAt, then a new one is fetched from the source", async () => {
    const client = await platform();
    const first = (await rates(client, eurUsd)).body.data;
    const updatedAt = Date.parse((first[0] as ExchangeRate).updatedAt);
    await advance(client, new Date(updatedAt + 5 * 60 * 1000 - 1));
    expect((await rates(client, eurUsd)).body.data).toEqual(first);
    const expiry = new Date(updatedAt + 5 * 60 * 1000);
    await advance(client, expiry);
    const second = (await rates(client, eurUsd)).body.data[0] as ExchangeRate;
    expect(second.updatedAt).toBe(expiry.toISOString());
    const fromSource = sandboxRateSource.rate("EUR", "USD", expiry);
    expect(fromSource && Number(formatRate(fromSource))).toBe(second.exchangeRate);
  });

  test("the cache moves on the platform's own clock: another platform's advance leaves it alone", async () => {
    const a = await platform();
    const b = await platform();
    const usdInr = "?sourceCurrency=USD&destinationCurrency=INR";
    const before = (await rates(a, usdInr)).body.data;
    await rates(b, usdInr);
    await advance(b, new Date(START.getTime() + 60 * 60 * 1000));
    const bAfter = (await rates(b, usdInr)).body.data[0] as ExchangeRate;
    expect(bAfter.updatedAt).toBe(new Date(START.getTime() + 60 * 60 * 1000).toISOString());
    expect((await rates(a, usdInr)).body.data).toEqual(before);
  });

  test("concurrent first fetches of a pair all serve one rate", async () => {
    const client = await platform();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => rates(client, "?sourceCurrency=USDC&destinationCurrency=GBP")),
    );
    const served = results.map((r) => r.body.data[0]);
    expect(new Set(served.map((r) => JSON.stringify(r))).size).toBe(1);
  });

  test("a rate is stored exactly: the wire number is the stored decimal, at most 10 significant digits", async () => {
    const client = await platform();
    const res = await rates(client);
    const rows = await server.db.query<{
      source_currency: string;
      destination_currency: string;
      rate: string;
    }>("SELECT source_currency, destination_currency, rate FROM exchange_rates WHERE platform_id = $1", [
      client.credentials.platformId,
    ]);
    const stored = new Map(rows.map((r) => [`${r.source_currency}/${r.destination_currency}`, r.rate]));
    for (const rate of res.body.data) {
      const text = stored.get(`${rate.sourceCurrency.code}/${rate.destinationCurrency.code}`) as string;
      expect(text).toMatch(/^\d+(\.\d+)?$/);
      expect(text.replace(".", "").replace(/^0+/, "").replace(/0+$/, "").length).toBeLessThanOrEqual(10);
      expect(Number(text)).toBe(rate.exchangeRate);
    }
  });
});
