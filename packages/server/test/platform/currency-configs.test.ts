import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";

// `supportedCurrencies` in the hosted API's shape: one PlatformCurrencyConfig per currency
// (docs/decisions.md "Currency settings").

type CurrencyConfig = {
  currencyCode: string;
  minAmount: number;
  maxAmount: number;
  requiredCounterpartyFields: { name: string; mandatory: boolean }[];
  enabledTransactionTypes: string[];
};
type Config = { supportedCurrencies: CurrencyConfig[] };
type ErrorBody = { code: string; details?: { errors: { field: string; message: string }[] } };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function freshPlatform(): Promise<TestClient> {
  return server.client.as(await server.newPlatform());
}

const usd: CurrencyConfig = {
  currencyCode: "USD",
  minAmount: 100,
  maxAmount: 500_000,
  requiredCounterpartyFields: [
    { name: "FULL_NAME", mandatory: true },
    { name: "BIRTH_DATE", mandatory: false },
  ],
  enabledTransactionTypes: ["INCOMING"],
};

describe("supportedCurrencies: PlatformCurrencyConfig objects", () => {
  test("a new sandbox platform lists USD and USDB with the default settings", async () => {
    const client = await freshPlatform();
    const res = await client.get<Config>("/config");
    expect(res.status).toBe(200);
    expect(res.body.supportedCurrencies).toEqual(
      ["USD", "USDB"].map((currencyCode) => ({
        currencyCode,
        minAmount: 1,
        maxAmount: 9_000_000_000_000_000,
        requiredCounterpartyFields: [{ name: "FULL_NAME", mandatory: false }],
        enabledTransactionTypes: ["OUTGOING", "INCOMING"],
      })),
    );
  });

  test("PATCH replaces the list: each currency keeps the settings given, in the order given", async () => {
    const client = await freshPlatform();
    const eur = { ...usd, currencyCode: "EUR", requiredCounterpartyFields: [], enabledTransactionTypes: [] };
    const res = await client.patch<Config>("/config", { supportedCurrencies: [eur, usd] });
    expect(res.status).toBe(200);
    expect(res.body.supportedCurrencies).toEqual([eur, usd]);
    expect((await client.get<Config>("/config")).body.supportedCurrencies).toEqual([eur, usd]);
  });

  test("a currency listed twice, minAmount above maxAmount and a field named twice: one 400 naming each", async () => {
    const client = await freshPlatform();
    const res = await client.patch<ErrorBody>("/config", {
      supportedCurrencies: [
        usd,
        {
          ...usd,
          minAmount: 600_000,
          requiredCounterpartyFields: [
            { name: "TAX_ID", mandatory: true },
            { name: "TAX_ID", mandatory: false },
          ],
        },
      ],
    });
    expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual([
      "supportedCurrencies[1].currencyCode",
      "supportedCurrencies[1].minAmount",
      "supportedCurrencies[1].requiredCounterpartyFields[1].name",
    ]);
    expect((await client.get<Config>("/config")).body.supportedCurrencies.map((c) => c.currencyCode)).toEqual(
      ["USD", "USDB"],
    );
  });

  test("a bare currency code, an unknown field name or an unknown transaction type is 400 INVALID_INPUT", async () => {
    const client = await freshPlatform();
    const bodies = [
      ["USD"],
      [{ ...usd, requiredCounterpartyFields: [{ name: "SHOE_SIZE", mandatory: true }] }],
      [{ ...usd, enabledTransactionTypes: ["SIDEWAYS"] }],
      [{ ...usd, currencyCode: "XYZ" }],
    ];
    for (const supportedCurrencies of bodies) {
      const res = await client.patch<ErrorBody>("/config", { supportedCurrencies });
      expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
      expect(res.body.details?.errors[0]?.field).toMatch(/^supportedCurrencies\[0\]/);
    }
  });
});
