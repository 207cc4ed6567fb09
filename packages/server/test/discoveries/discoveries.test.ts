import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { corridors, railsFor } from "../../src/rails/corridors.js";
import { startServer, type TestServer } from "../harness.js";

type Discovery = {
  bankName: string;
  displayName: string;
  country: string;
  currency: string;
  paymentRails: string[];
};
type ErrorBody = { code: string; details?: { errors: { field: string }[] } };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const discover = (query = "") => server.client.get<{ data: Discovery[] } & ErrorBody>(`/discoveries${query}`);

describe("GET /discoveries", () => {
  test("every corridor of the corridor table is listed, each entry in the hosted shape", async () => {
    const res = await discover();
    expect(res.status).toBe(200);
    expect(new Set(res.body.data.map((d) => d.currency))).toEqual(new Set(corridors.map((c) => c.currency)));
    for (const entry of res.body.data) {
      expect(entry.bankName.length).toBeGreaterThan(0);
      expect(entry.country).toMatch(/^[A-Z]{2}$/);
      expect(entry.paymentRails.length).toBeGreaterThan(0);
    }
  });

  test("country and currency filter: PHP in the Philippines lists its banks and wallets with the corridor's rails", async () => {
    const res = await discover("?country=PH&currency=PHP");
    expect(res.status).toBe(200);
    expect(res.body.data.map((d) => d.bankName)).toContain("GCash");
    for (const entry of res.body.data) {
      expect(entry).toMatchObject({ country: "PH", currency: "PHP" });
      expect(entry.paymentRails).toEqual(railsFor("PHP"));
    }
  });

  test("USD reaches El Salvador only over the SLV_ACCOUNT rails, not ACH", async () => {
    const res = await discover("?country=SV");
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const entry of res.body.data) {
      expect(entry.currency).toBe("USD");
      expect(entry.paymentRails).not.toContain("ACH");
    }
  });

  test("a known currency without a corridor, or a country none reaches -> 200 with an empty list", async () => {
    expect((await discover("?currency=BTC")).body.data).toEqual([]);
    expect((await discover("?country=AQ")).body.data).toEqual([]);
  });

  test("an unknown currency -> 400 INVALID_CURRENCY; a malformed country -> 400 naming country", async () => {
    expect((await discover("?currency=ZZZ")).body.code).toBe("INVALID_CURRENCY");
    const bad = await discover("?country=mexico");
    expect(bad.status).toBe(400);
    expect(bad.body.details?.errors.map((e) => e.field)).toEqual(["country"]);
  });
});
