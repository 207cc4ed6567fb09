import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { type ErrorBody, newAccount, transfer } from "./helpers.js";

let server: TestServer;
let a: string;
let b: string;
beforeAll(async () => {
  server = await startServer();
  a = await newAccount(server);
  b = await newAccount(server);
});
afterAll(() => server.close());

describe("POST /quotes: body validation -> 400 INVALID_INPUT naming each field", () => {
  const valid = () => transfer(a, b, 100);
  test.each<[string, () => Record<string, unknown>, string[]]>([
    ["lockedCurrencyAmount 0", () => ({ ...valid(), lockedCurrencyAmount: 0 }), ["lockedCurrencyAmount"]],
    [
      "lockedCurrencyAmount above 9e15",
      () => ({ ...valid(), lockedCurrencyAmount: 9e15 + 1 }),
      ["lockedCurrencyAmount"],
    ],
    [
      "lockedCurrencyAmount a fraction",
      () => ({ ...valid(), lockedCurrencyAmount: 1.5 }),
      ["lockedCurrencyAmount"],
    ],
    [
      "lockedCurrencyAmount a string",
      () => ({ ...valid(), lockedCurrencyAmount: "100" }),
      ["lockedCurrencyAmount"],
    ],
    [
      "lockedCurrencySide unknown",
      () => ({ ...valid(), lockedCurrencySide: "BOTH" }),
      ["lockedCurrencySide"],
    ],
    [
      "remittanceInformation of 81 characters",
      () => ({ ...valid(), remittanceInformation: "x".repeat(81) }),
      ["remittanceInformation"],
    ],
    [
      "platformFeeOverride negative",
      () => ({ ...valid(), platformFeeOverride: -1 }),
      ["platformFeeOverride"],
    ],
    ["an unknown field", () => ({ ...valid(), memo: "hi" }), ["memo"]],
    [
      "source without accountId",
      () => ({ ...valid(), source: { sourceType: "ACCOUNT" } }),
      ["source.accountId"],
    ],
    [
      "destination.paymentRail unknown",
      () => ({
        ...valid(),
        destination: { destinationType: "ACCOUNT", accountId: b, paymentRail: "CARRIER_PIGEON" },
      }),
      ["destination.paymentRail"],
    ],
    [
      "destination.paymentRail on an internal account",
      () => ({ ...valid(), destination: { destinationType: "ACCOUNT", accountId: b, paymentRail: "ACH" } }),
      ["destination.paymentRail"],
    ],
    [
      "source.currency on an ACCOUNT source",
      () => ({ ...valid(), source: { sourceType: "ACCOUNT", accountId: a, currency: "USD" } }),
      ["source.currency"],
    ],
    [
      "lookupId on an internal account destination",
      () => ({ ...valid(), lookupId: "Lookup:1" }),
      ["lookupId"],
    ],
    [
      "missing destination and lockedCurrencySide",
      () => ({ source: valid().source, lockedCurrencyAmount: 1 }),
      ["destination", "lockedCurrencySide"],
    ],
  ])("%s", async (_name, body, fields) => {
    const res = await server.client.post<ErrorBody>("/quotes", body());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors.map((e) => e.field).sort()).toEqual(fields);
  });
});
