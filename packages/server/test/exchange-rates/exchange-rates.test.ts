import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { formatRate } from "../../src/exchange-rates/decimal.js";
import { pricedCurrencies, sandboxRateSource } from "../../src/exchange-rates/sandbox-source.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";

/** The priced fiat currencies besides USD: each has a rate to and from USD and the dollar stablecoins. */
const otherFiat = pricedCurrencies.filter((code) => !["USD", "USDC", "USDT", "USDB"].includes(code));

type Rate = {
  sourceCurrency: { code: string; decimals: number };
  destinationCurrency: { code: string };
  rate: number;
  platformFees: Record<string, unknown>[];
  fetchedAt: string;
  expiresAt: string;
};
type List = { data: Rate[] };
type ErrorBody = { code: string; reason: string; details?: { errors: { field: string }[] } };

const START = new Date("2027-02-10T15:00:00.000Z");
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ serviceTime: START.toISOString() });
});
afterAll(() => server.close());

/** A fresh platform (its own cache and clock). */
async function platform(): Promise<TestClient> {
  return server.client.as(await server.newPlatform());
}

const rates = (client: TestClient, query = "") => client.get<List>(`/exchange-rates${query}`);

async function advance(client: TestClient, to: Date) {
  expect((await client.post("/sandbox/clock/advance", { to: to.toISOString() })).status).toBe(200);
}

describe("listing", () => {
  test("GET /exchange-rates lists every corridor through the dollar, each cached for 5 minutes", async () => {
    const res = await rates(await platform());
    expect(res.status).toBe(200);
    // USD and the 3 dollar stablecoins among themselves (4 × 3), and each of them to and from every
    // other priced fiat currency (4 × n × 2). BTC has no rate.
    expect(res.body.data).toHaveLength(4 * 3 + 4 * otherFiat.length * 2);
    for (const rate of res.body.data) {
      expect(rate.sourceCurrency.code).not.toBe(rate.destinationCurrency.code);
      expect(rate.rate).toBeGreaterThan(0);
      expect(rate.fetchedAt).toBe(START.toISOString());
      expect(Date.parse(rate.expiresAt) - Date.parse(rate.fetchedAt)).toBe(5 * 60 * 1000);
    }
  });

  test("sourceCurrency and destinationCurrency filter the list", async () => {
    const client = await platform();
    const fromUsd = await rates(client, "?sourceCurrency=USD");
    expect(fromUsd.body.data).toHaveLength(3 + otherFiat.length);
    expect(new Set(fromUsd.body.data.map((r) => r.sourceCurrency.code))).toEqual(new Set(["USD"]));
    const toMxn = await rates(client, "?destinationCurrency=MXN");
    expect(toMxn.body.data.map((r) => r.sourceCurrency.code)).toEqual(["USD", "USDB", "USDC", "USDT"]);
    expect(new Set(toMxn.body.data.map((r) => r.destinationCurrency.code))).toEqual(new Set(["MXN"]));
    const one = await rates(client, "?sourceCurrency=EUR&destinationCurrency=USD");
    expect(one.body.data.map((r) => [r.sourceCurrency.code, r.destinationCurrency.code])).toEqual([
      ["EUR", "USD"],
    ]);
  });

  test("a corridor without a rate (BTC, or a cross between two non-dollar currencies) is not listed", async () => {
    const client = await platform();
    expect((await rates(client, "?sourceCurrency=BTC")).body).toEqual({ data: [] });
    expect((await rates(client, "?sourceCurrency=USD&destinationCurrency=BTC")).body).toEqual({ data: [] });
    expect((await rates(client, "?sourceCurrency=EUR&destinationCurrency=MXN")).body).toEqual({ data: [] });
    const fromEur = await rates(client, "?sourceCurrency=EUR");
    expect(fromEur.body.data.map((r) => r.destinationCurrency.code)).toEqual(["USD", "USDB", "USDC", "USDT"]);
  });

  test("a pair of the same currency is not listed", async () => {
    const res = await rates(await platform(), "?sourceCurrency=USD&destinationCurrency=USD");
    expect(res.body).toEqual({ data: [] });
  });

  test("dollar stablecoins are pegged to USD at exactly 1", async () => {
    const res = await rates(await platform(), "?sourceCurrency=USD");
    const pegged = res.body.data.filter((r) => ["USDC", "USDT", "USDB"].includes(r.destinationCurrency.code));
    expect(pegged.map((r) => r.rate)).toEqual([1, 1, 1]);
  });
});

describe("errors", () => {
  test.each([["sourceCurrency"], ["destinationCurrency"]])(
    "an unknown currency code in %s is 400 INVALID_CURRENCY",
    async (param) => {
      const res = await server.client.get<ErrorBody>(`/exchange-rates?${param}=XYZ`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "INVALID_CURRENCY", reason: "Unknown currency XYZ." });
    },
  );

  test("an unknown query parameter is 400 INVALID_INPUT", async () => {
    const res = await server.client.get<ErrorBody>("/exchange-rates?currency=USD");
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["currency"]);
  });

  test("without credentials it is 401 UNAUTHORIZED", async () => {
    const res = await server.client.get<ErrorBody>("/exchange-rates", { auth: null });
    expect(res.status).toBe(401);
  });
});

describe("caching", () => {
  test("the same rate is served until expiresAt, then a new one is fetched from the source", async () => {
    const client = await platform();
    const first = (await rates(client, "?sourceCurrency=EUR&destinationCurrency=USD")).body.data[0] as Rate;
    await advance(client, new Date(Date.parse(first.expiresAt) - 1));
    expect((await rates(client, "?sourceCurrency=EUR&destinationCurrency=USD")).body.data).toEqual([first]);
    const expiry = new Date(first.expiresAt);
    await advance(client, expiry);
    const second = (await rates(client, "?sourceCurrency=EUR&destinationCurrency=USD")).body.data[0] as Rate;
    expect(second.fetchedAt).toBe(first.expiresAt);
    expect(Date.parse(second.expiresAt)).toBe(expiry.getTime() + 5 * 60 * 1000);
    const fromSource = sandboxRateSource.rate("EUR", "USD", expiry);
    expect(fromSource && Number(formatRate(fromSource))).toBe(second.rate);
  });

  test("the cache moves on the platform's own clock: another platform's advance leaves it alone", async () => {
    const a = await platform();
    const b = await platform();
    const before = (await rates(a, "?sourceCurrency=USD&destinationCurrency=INR")).body.data;
    await rates(b, "?sourceCurrency=USD&destinationCurrency=INR");
    await advance(b, new Date(START.getTime() + 60 * 60 * 1000));
    const bAfter = (await rates(b, "?sourceCurrency=USD&destinationCurrency=INR")).body.data[0] as Rate;
    expect(bAfter.fetchedAt).toBe(new Date(START.getTime() + 60 * 60 * 1000).toISOString());
    expect((await rates(a, "?sourceCurrency=USD&destinationCurrency=INR")).body.data).toEqual(before);
  });

  test("concurrent first fetches of a pair all serve one rate", async () => {
    const client = await platform();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => rates(client, "?sourceCurrency=GBP&destinationCurrency=USDC")),
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
      expect(Number(text)).toBe(rate.rate);
    }
  });
});

describe("platform fees", () => {
  test("USD sources carry the platform's feeConfigs; other sources carry none", async () => {
    const client = await platform();
    const feeConfigs = [
      { rail: "INTERNAL", variableRateBps: 25, fixedAmount: 30 },
      { rail: "ACH", fixedAmount: 100 },
    ];
    expect((await client.patch("/config", { feeConfigs })).status).toBe(200);
    const fromUsd = await rates(client, "?sourceCurrency=USD");
    for (const rate of fromUsd.body.data) expect(rate.platformFees).toEqual(feeConfigs);
    const fromEur = await rates(client, "?sourceCurrency=EUR");
    for (const rate of fromEur.body.data) expect(rate.platformFees).toEqual([]);
  });

  test("without feeConfigs a USD source lists no platform fees", async () => {
    const res = await rates(await platform(), "?sourceCurrency=USD&destinationCurrency=EUR");
    expect(res.body.data[0]?.platformFees).toEqual([]);
  });
});
