import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { maxTransactionAmount } from "../../src/rails/limits.js";
import { startServer, type TestServer } from "../harness.js";
import { payer, payout, platformClient } from "../payouts/helpers.js";
import type { ErrorBody } from "../quotes/helpers.js";
import { corridors } from "./corridor-examples.js";
import { accountInfo } from "./corridor-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

interface Lookup {
  lookupId: string;
  accountId: string;
  supportedCurrencies: {
    currency: { code: string; decimals: number };
    estimatedExchangeRate: number;
    min: number;
    max: number;
  }[];
  requiredPayerDataFields: unknown[];
}

const lookupPath = (id: string, query = "") => `/receiver/external-account/${encodeURIComponent(id)}${query}`;
const lookupIdPattern = /^Lookup:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function euroAccount(customerId: string): Promise<string> {
  const corridor = corridors.find((c) => c.currency === "EUR");
  if (!corridor) throw new Error("no EUR corridor example");
  const res = await server.client.post<{ id: string }>("/customers/external-accounts", {
    customerId,
    currency: "EUR",
    accountInfo: accountInfo(corridor),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

describe("GET /receiver/external-account/{accountId} (the hosted API's lookupExternalAccount)", () => {
  test("a USD bank account: USD at rate 1, from 1 minor unit to the corridor's maximum, no payer data asked", async () => {
    const { externalId } = await payer(server.client, { funds: 0 });
    const res = await server.client.get<Lookup>(lookupPath(externalId));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      lookupId: expect.stringMatching(lookupIdPattern),
      accountId: externalId,
      supportedCurrencies: [
        {
          currency: expect.objectContaining({ code: "USD", decimals: 2 }),
          estimatedExchangeRate: 1,
          min: 1,
          max: maxTransactionAmount("USD"),
        },
      ],
      requiredPayerDataFields: [],
    });
  });

  test("a EUR bank account: the estimated rate is the platform's cached USD to EUR rate", async () => {
    const { customerId } = await payer(server.client, { funds: 0 });
    const accountId = await euroAccount(customerId);
    const res = await server.client.get<Lookup>(lookupPath(accountId, `?customerId=${customerId}`));
    expect(res.status).toBe(200);
    const [cached] = await server.db.query<{ rate: string }>(
      `SELECT r.rate FROM exchange_rates r JOIN external_accounts a ON a.platform_id = r.platform_id
       WHERE a.id = $1 AND r.source_currency = 'USD' AND r.destination_currency = 'EUR'`,
      [accountId],
    );
    expect(res.body.supportedCurrencies).toEqual([
      {
        currency: expect.objectContaining({ code: "EUR" }),
        estimatedExchangeRate: Number(cached?.rate),
        min: 1,
        max: maxTransactionAmount("EUR"),
      },
    ]);
  });

  test("a quote citing the lookup's id quotes the payout to that account", async () => {
    const { accountId, externalId } = await payer(server.client);
    const lookup = await server.client.get<Lookup>(lookupPath(externalId));
    const res = await server.client.post("/quotes", {
      ...payout(accountId, externalId, 1_000),
      lookupId: lookup.body.lookupId,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ destination: { accountId: externalId } });
  });

  test("a quote citing the lookup of another account -> 400 INVALID_INPUT on lookupId", async () => {
    const { accountId, externalId, customerId } = await payer(server.client);
    const otherAccount = await euroAccount(customerId);
    const lookup = await server.client.get<Lookup>(lookupPath(otherAccount));
    const res = await server.client.post<ErrorBody>("/quotes", {
      ...payout(accountId, externalId, 1_000),
      lookupId: lookup.body.lookupId,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "lookupId" }] } });
  });

  test("a quote citing an unknown or another platform's lookup -> 404 LOOKUP_REQUEST_NOT_FOUND", async () => {
    const { accountId, externalId } = await payer(server.client);
    const foreignClient = await platformClient(server);
    const foreign = await payer(foreignClient, { funds: 0 });
    const foreignLookup = (await foreignClient.get<Lookup>(lookupPath(foreign.externalId))).body.lookupId;
    for (const lookupId of ["Lookup:019542f5-b3e7-7d02-8000-000000000009", foreignLookup]) {
      const res = await server.client.post<ErrorBody>("/quotes", {
        ...payout(accountId, externalId, 1_000),
        lookupId,
      });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("LOOKUP_REQUEST_NOT_FOUND");
    }
  });

  test("an unknown, malformed or another platform's account -> 404 ACCOUNT_NOT_FOUND", async () => {
    const foreign = await payer(await platformClient(server), { funds: 0 });
    for (const id of ["ExternalAccount:019542f5-b3e7-7d02-8000-000000000001", "nope", foreign.externalId]) {
      const res = await server.client.get<ErrorBody>(lookupPath(id));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "ACCOUNT_NOT_FOUND", reason: `No external account ${id}.` });
    }
  });

  test("a senderUmaAddress that is not a UMA address -> 400 INVALID_UMA_ADDRESS", async () => {
    const { externalId } = await payer(server.client, { funds: 0 });
    const res = await server.client.get<ErrorBody>(lookupPath(externalId, "?senderUmaAddress=alice@example"));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_UMA_ADDRESS");
  });

  test("an unknown customerId -> 404 CUSTOMER_NOT_FOUND; an unknown query parameter -> 400 INVALID_INPUT", async () => {
    const { externalId } = await payer(server.client, { funds: 0 });
    const unknownCustomer = "Customer:019542f5-b3e7-7d02-8000-000000000001";
    const res = await server.client.get<ErrorBody>(lookupPath(externalId, `?customerId=${unknownCustomer}`));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("CUSTOMER_NOT_FOUND");
    const extra = await server.client.get<ErrorBody>(lookupPath(externalId, "?amount=5"));
    expect(extra.status).toBe(400);
    expect(extra.body.code).toBe("INVALID_INPUT");
  });
});
