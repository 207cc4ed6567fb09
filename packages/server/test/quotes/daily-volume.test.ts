import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ControlledClock } from "../../src/core/clock.js";
import { setDailyVolumeLimit } from "../../src/quotes/daily-volume.js";
import { currencySettings, startServer, type TestServer } from "../harness.js";
import { payer, payout, type Transaction } from "../payouts/helpers.js";
import {
  advance,
  type ErrorBody,
  limitedPlatform,
  pair,
  platformNow,
  volumeOf,
} from "./daily-volume-helpers.js";
import { balanceOf, fund, ledgerInvariantHolds, type Quote, transfer } from "./helpers.js";

// Wednesday 2027-01-13, 12:00 in Chicago (CST, -06:00): 12 hours to the next Chicago midnight.
const START = new Date("2027-01-13T18:00:00.000Z");
const TODAY = "2027-01-13";
const MIDNIGHT = "2027-01-14T06:00:00.000Z";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ clock: new ControlledClock(START) });
});
afterAll(() => server.close());

const now = (from: string, to: string, amount: number, extra: Record<string, unknown> = {}) =>
  transfer(from, to, amount, { immediatelyExecute: true, ...extra });

describe("the limit (429 DAILY_VOLUME_LIMIT_EXCEEDED)", () => {
  test("an execution that would take the day's volume above the limit is 429 DAILY_VOLUME_LIMIT_EXCEEDED", async () => {
    const client = await limitedPlatform(server, 10_000);
    const { from, to } = await pair(server, client, 50_000);
    expect((await client.post("/quotes", now(from, to, 6_000))).status).toBe(201);
    const refused = await client.post<ErrorBody>("/quotes", now(from, to, 5_000));
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("DAILY_VOLUME_LIMIT_EXCEEDED");
    expect(refused.body.details).toEqual({
      day: TODAY,
      dailyVolumeLimit: 10_000,
      executedVolume: 6_000,
      requestedVolume: 5_000,
      resetsAt: MIDNIGHT,
    });
  });

  test("Retry-After is the integer seconds to the next America/Chicago midnight", async () => {
    const client = await limitedPlatform(server, 100);
    const { from, to } = await pair(server, client, 1_000);
    const refused = await client.post("/quotes", now(from, to, 101));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe(String(12 * 3600));
  });

  test("reaching the limit exactly is allowed", async () => {
    const client = await limitedPlatform(server, 10_000);
    const { from, to } = await pair(server, client, 50_000);
    expect((await client.post("/quotes", now(from, to, 6_000))).status).toBe(201);
    expect((await client.post("/quotes", now(from, to, 4_000))).status).toBe(201);
    expect(await volumeOf(server, client, TODAY)).toBe(10_000);
    expect((await client.post("/quotes", now(from, to, 1))).status).toBe(429);
  });

  test("an execution above the limit on its own is refused", async () => {
    const client = await limitedPlatform(server, 999);
    const { from, to } = await pair(server, client, 5_000);
    const refused = await client.post<ErrorBody>("/quotes", now(from, to, 1_000));
    expect(refused.status).toBe(429);
    expect(refused.body.details).toMatchObject({ executedVolume: 0, requestedVolume: 1_000 });
  });

  test("a refused immediatelyExecute quote writes nothing: no quote, transaction, balance change or volume", async () => {
    const client = await limitedPlatform(server, 1_000);
    const { from, to } = await pair(server, client, 5_000);
    const platformId = client.credentials.platformId;
    const count = async (table: string) =>
      (
        await server.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${table} WHERE platform_id = $1`,
          [platformId],
        )
      )[0]?.n;
    const before = {
      quotes: await count("quotes"),
      transactions: await count("transactions"),
      events: await count("webhook_events"),
    };
    expect((await client.post("/quotes", now(from, to, 1_001))).status).toBe(429);
    expect({
      quotes: await count("quotes"),
      transactions: await count("transactions"),
      events: await count("webhook_events"),
    }).toEqual(before);
    expect(await balanceOf(server, from, client.credentials)).toBe(5_000);
    expect(await balanceOf(server, to, client.credentials)).toBe(0);
    expect(await volumeOf(server, client, TODAY)).toBe(0);
    await ledgerInvariantHolds(server);
  });

  test("a refused execute of a PENDING quote leaves it PENDING and moves nothing; it may be executed later", async () => {
    const client = await limitedPlatform(server, 1_000);
    const { from, to } = await pair(server, client, 5_000);
    expect((await client.post("/quotes", now(from, to, 800))).status).toBe(201);
    const quote = await client.post<Quote>("/quotes", transfer(from, to, 500));
    const refused = await client.post<ErrorBody>(`/quotes/${quote.body.id}/execute`);
    expect(refused.status).toBe(429);
    expect((await client.get<Quote>(`/quotes/${quote.body.id}`)).body.status).toBe("PENDING");
    expect(await balanceOf(server, from, client.credentials)).toBe(4_200);
    expect(await volumeOf(server, client, TODAY)).toBe(800);
    await setDailyVolumeLimit(server.deps, client.credentials.platformId, 1_300);
    expect((await client.post(`/quotes/${quote.body.id}/execute`)).status).toBe(200);
    expect(await volumeOf(server, client, TODAY)).toBe(1_300);
  });

  test("a failed execution (INSUFFICIENT_FUNDS) adds no volume", async () => {
    const client = await limitedPlatform(server, 1_000);
    const { from, to } = await pair(server, client, 0);
    const refused = await client.post<ErrorBody>("/quotes", now(from, to, 700));
    expect(refused.body.code).toBe("INSUFFICIENT_FUNDS");
    expect(await volumeOf(server, client, TODAY)).toBe(0);
    await fund(server, from, 1_000, client.credentials);
    expect((await client.post("/quotes", now(from, to, 1_000))).status).toBe(201);
  });

  test("the limit is per platform: another platform's volume does not count", async () => {
    const a = await limitedPlatform(server, 1_000);
    const b = await limitedPlatform(server, 1_000);
    const inA = await pair(server, a, 5_000);
    const inB = await pair(server, b, 5_000);
    expect((await a.post("/quotes", now(inA.from, inA.to, 1_000))).status).toBe(201);
    expect((await a.post("/quotes", now(inA.from, inA.to, 1))).status).toBe(429);
    expect((await b.post("/quotes", now(inB.from, inB.to, 1_000))).status).toBe(201);
  });

  test("the default limit is USD 10,000,000.00 per Chicago day", async () => {
    const client = await limitedPlatform(server);
    const { from, to } = await pair(server, client, 0);
    await fund(server, from, 1_000_000_001, client.credentials);
    for (let i = 0; i < 10; i++)
      expect((await client.post("/quotes", now(from, to, 100_000_000))).status).toBe(201);
    expect((await client.post("/quotes", now(from, to, 1))).status).toBe(429);
  });
});

describe("what counts", () => {
  test("an execution counts its totalSendingAmount, fees included", async () => {
    const client = await limitedPlatform(server, 1_000_000);
    await client.patch("/config", { feeConfigs: [{ rail: "INTERNAL", fixedAmount: 100 }] });
    const { from, to } = await pair(server, client, 5_000);
    const executed = await client.post<Quote>(
      "/quotes",
      now(from, to, 1_000, { lockedCurrencySide: "RECEIVING" }),
    );
    expect(executed.body.totalSendingAmount).toBe(1_100);
    expect(await volumeOf(server, client, TODAY)).toBe(1_100);
  });

  test("payouts count; a failed and refunded payout gives no volume back", async () => {
    const client = await limitedPlatform(server, 15_000);
    const { accountId, externalId } = await payer(client, { suffix: "002", funds: 30_000 });
    const executed = await client.post<Quote>(
      "/quotes",
      payout(accountId, externalId, 10_000, { immediatelyExecute: true }),
    );
    expect(executed.status).toBe(201);
    await server.jobs.runDue();
    const txn = await client.get<Transaction>(`/transactions/${executed.body.transactionId}`);
    expect(txn.body.status).toBe("FAILED");
    expect(await volumeOf(server, client, TODAY)).toBe(10_000);
    const again = await client.post(
      "/quotes",
      payout(accountId, externalId, 6_000, { immediatelyExecute: true }),
    );
    expect(again.status).toBe(429);
  });

  test("a non-USD execution counts in USD cents at the platform's cached rate, rounded up", async () => {
    const client = await limitedPlatform(server, 1_000_000);
    await client.patch("/config", { supportedCurrencies: currencySettings("USD", "EUR") });
    const { from, to } = await pair(server, client, 100_000, "EUR");
    expect((await client.post("/quotes", now(from, to, 12_345))).status).toBe(201);
    const rates = await client.get<{ data: { exchangeRate: number }[] }>(
      "/exchange-rates?sourceCurrency=EUR&destinationCurrency=USD",
    );
    const rate = rates.body.data[0]?.exchangeRate as number;
    // Exact: the rate has at most 10 significant digits, so scale it to an integer before multiplying.
    const scaled = BigInt(Math.round(rate * 1e10));
    const cents = (12_345n * scaled + 10n ** 10n - 1n) / 10n ** 10n;
    expect(await volumeOf(server, client, TODAY)).toBe(Number(cents));
  });
});

describe("the day (America/Chicago, platform clock)", () => {
  test("the day is the Chicago calendar day: 23:00 UTC and 00:30 UTC the next UTC day count together", async () => {
    const client = await limitedPlatform(server, 1_000);
    const { from, to } = await pair(server, client, 5_000);
    await advance(client, "2027-01-13T23:00:00.000Z");
    expect((await client.post("/quotes", now(from, to, 600))).status).toBe(201);
    await advance(client, "2027-01-14T00:30:00.000Z");
    expect((await client.post("/quotes", now(from, to, 500))).status).toBe(429);
    expect(await volumeOf(server, client, TODAY)).toBe(600);
  });

  test("one second before Chicago midnight the limit still holds, with Retry-After 1", async () => {
    const client = await limitedPlatform(server, 1_000);
    const { from, to } = await pair(server, client, 5_000);
    expect((await client.post("/quotes", now(from, to, 1_000))).status).toBe(201);
    await advance(client, new Date(Date.parse(MIDNIGHT) - 1_000));
    const refused = await client.post("/quotes", now(from, to, 1));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
  });

  test("a client that waits Retry-After seconds succeeds: the limit resets at the next Chicago midnight", async () => {
    const client = await limitedPlatform(server, 1_000);
    const { from, to } = await pair(server, client, 5_000);
    expect((await client.post("/quotes", now(from, to, 1_000))).status).toBe(201);
    const refused = await client.post("/quotes", now(from, to, 400));
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    await advance(client, new Date((await platformNow(client)).getTime() + wait * 1_000));
    expect((await client.post("/quotes", now(from, to, 400))).status).toBe(201);
    expect(await volumeOf(server, client, "2027-01-14")).toBe(400);
    expect(await volumeOf(server, client, TODAY)).toBe(1_000);
  });

  test.each([
    // Spring forward: 2027-03-14 has 23 hours; at 01:00 CST, 22 hours remain.
    [
      "a 23-hour day (DST starts)",
      "2027-03-14T07:00:00.000Z",
      "2027-03-14",
      22 * 3600,
      "2027-03-15T05:00:00.000Z",
    ],
    // Fall back: 2027-11-07 has 25 hours; at its midnight (CDT) all 25 remain.
    [
      "a 25-hour day (DST ends)",
      "2027-11-07T05:00:00.000Z",
      "2027-11-07",
      25 * 3600,
      "2027-11-08T06:00:00.000Z",
    ],
  ])("Retry-After counts real seconds on %s", async (_name, at, day, seconds, resetsAt) => {
    const client = await limitedPlatform(server, 100);
    const { from, to } = await pair(server, client, 1_000);
    await advance(client, at);
    const refused = await client.post<ErrorBody>("/quotes", now(from, to, 101));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe(String(seconds));
    expect(refused.body.details).toMatchObject({ day, resetsAt });
  });
});
