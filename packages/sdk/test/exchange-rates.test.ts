import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { convertMinorUnits, parseRate } from "../../server/src/exchange-rates/decimal.js";
import { startServer, type TestServer } from "../../server/test/harness.js";
import { BadRequestError, PaysvcClient } from "../src/index.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** A client of a fresh platform whose `now` option reads `clock.now` (the platform clock is the real one). */
async function clientWithClock() {
  const clock = { now: new Date() };
  const paysvc = new PaysvcClient({
    baseUrl: server.baseUrl,
    ...(await server.newPlatform()),
    now: () => clock.now,
  });
  return { paysvc, clock };
}

describe("exchange rates through the SDK", () => {
  test("list answers each corridor per destination rail, priced for the default sendingAmount of 10000", async () => {
    const { paysvc } = await clientWithClock();
    const rates = await paysvc.exchangeRates.list({ sourceCurrency: "USD", destinationCurrency: "EUR" });
    expect(rates.lastResponse.status).toBe(200);
    expect(rates.data.map((rate) => rate.destinationPaymentRail)).toEqual(["SEPA_INSTANT", "SEPA", "SWIFT"]);
    for (const rate of rates.data) {
      expect(rate).toMatchObject({
        sourceCurrency: { code: "USD" },
        destinationCurrency: { code: "EUR" },
        sendingAmount: 10_000,
        fees: { fixed: 0, total: 0 },
      });
      expect(rate.exchangeRate).toBeGreaterThan(0);
      const exact = convertMinorUnits(
        10_000,
        parseRate(String(rate.exchangeRate)),
        { from: 2, to: 2 },
        "down",
      );
      expect(rate.receivingAmount).toBe(exact);
    }
  });

  test("several destination currencies (sent as a repeated parameter) and a sendingAmount", async () => {
    const { paysvc } = await clientWithClock();
    const rates = await paysvc.exchangeRates.list({
      sourceCurrency: "USD",
      destinationCurrency: ["MXN", "GBP"],
      sendingAmount: 250_000,
    });
    expect(new Set(rates.data.map((rate) => rate.destinationCurrency.code))).toEqual(new Set(["GBP", "MXN"]));
    for (const rate of rates.data) expect(rate.sendingAmount).toBe(250_000);
  });

  test("a second list within 5 minutes of updatedAt is served from the cache (same request id)", async () => {
    const { paysvc } = await clientWithClock();
    const first = await paysvc.exchangeRates.list({ sourceCurrency: "USD" });
    const second = await paysvc.exchangeRates.list({ sourceCurrency: "USD" });
    expect(second).toEqual(first);
    expect(second.lastResponse.requestId).toBe(first.lastResponse.requestId);
  });

  test("the cache is per set of parameters: another filter or sendingAmount asks the server", async () => {
    const { paysvc } = await clientWithClock();
    const fromUsd = await paysvc.exchangeRates.list({ sourceCurrency: "USD" });
    const toMxn = await paysvc.exchangeRates.list({ destinationCurrency: "MXN" });
    expect(toMxn.lastResponse.requestId).not.toBe(fromUsd.lastResponse.requestId);
    expect(new Set(toMxn.data.map((rate) => rate.destinationCurrency.code))).toEqual(new Set(["MXN"]));
    const larger = await paysvc.exchangeRates.list({ sourceCurrency: "USD", sendingAmount: 20_000 });
    expect(larger.lastResponse.requestId).not.toBe(fromUsd.lastResponse.requestId);
  });

  test("once the client's clock reaches 5 minutes after updatedAt the next list asks the server again", async () => {
    const { paysvc, clock } = await clientWithClock();
    const first = await paysvc.exchangeRates.list({ sourceCurrency: "USD" });
    clock.now = new Date(Math.min(...first.data.map((rate) => Date.parse(rate.updatedAt))) + 5 * 60 * 1000);
    const next = await paysvc.exchangeRates.list({ sourceCurrency: "USD" });
    expect(next.lastResponse.requestId).not.toBe(first.lastResponse.requestId);
  });

  test("refresh: true skips the cache, and clearCache forgets it", async () => {
    const { paysvc } = await clientWithClock();
    const first = await paysvc.exchangeRates.list();
    const refreshed = await paysvc.exchangeRates.list({}, { refresh: true });
    expect(refreshed.lastResponse.requestId).not.toBe(first.lastResponse.requestId);
    paysvc.exchangeRates.clearCache();
    const fetched = await paysvc.exchangeRates.list();
    expect(fetched.lastResponse.requestId).not.toBe(refreshed.lastResponse.requestId);
  });

  test("changing a served list does not change the cached one", async () => {
    const { paysvc } = await clientWithClock();
    const first = await paysvc.exchangeRates.list({ sourceCurrency: "USD" });
    first.data.length = 0;
    expect((await paysvc.exchangeRates.list({ sourceCurrency: "USD" })).data.length).toBeGreaterThan(0);
  });

  test("an empty currency filter is BadRequestError INVALID_INPUT", async () => {
    const { paysvc } = await clientWithClock();
    const refused = paysvc.exchangeRates.list({ sourceCurrency: "" });
    await expect(refused).rejects.toBeInstanceOf(BadRequestError);
    await expect(refused).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  test("an unknown code among several destination currencies is BadRequestError INVALID_CURRENCY naming it", async () => {
    const { paysvc } = await clientWithClock();
    const refused = paysvc.exchangeRates.list({ destinationCurrency: ["MXN", "XYZ"] });
    await expect(refused).rejects.toBeInstanceOf(BadRequestError);
    await expect(refused).rejects.toMatchObject({
      code: "INVALID_CURRENCY",
      details: { errors: [{ field: "destinationCurrency[1]" }] },
    });
  });
});
