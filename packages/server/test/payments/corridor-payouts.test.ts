import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { currency } from "../../src/core/money.js";
import { convertMinorUnits, parseRate } from "../../src/exchange-rates/decimal.js";
import { usableRails } from "../../src/rails/account-rails.js";
import { expectedSettlementFor } from "../../src/rails/rails.js";
import { accountInfo, type Corridor, corridors } from "../external-accounts/corridor-examples.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { advance, changesOf, eventsOf, payer, platformClient } from "../payouts/helpers.js";
import type { ErrorBody } from "../quotes/helpers.js";

type Quote = {
  id: string;
  status: string;
  transactionId: string;
  paymentRail: string;
  railSelectionMode: string;
  exchangeRate: number;
  totalSendingAmount: number;
  totalReceivingAmount: number;
  feesIncluded: number;
  receivingCurrency: { code: string };
};
type Transaction = {
  status: string;
  paymentRail?: string;
  expectedSettlementAt?: string;
  receivedAmount?: { amount: number; currency: { code: string } };
  sentAmount?: { amount: number };
  createdAt: string;
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** A funded USD account and an external account of the corridor, ACTIVE, of the same customer. */
async function corridorPayer(
  client: TestClient,
  corridor: Corridor,
  // Suffix 000: the sandbox's plain outcome (a valid example may end in another magic value).
  info = accountInfo(corridor, corridor.withSuffix("000")),
) {
  const { customerId, accountId } = await payer(client, { funds: 10_000_000 });
  const external = await client.post<{ id: string; status: string }>("/customers/external-accounts", {
    customerId,
    currency: corridor.currency,
    accountInfo: info,
  });
  expect(external.status, JSON.stringify(external.body)).toBe(201);
  return { accountId, externalId: external.body.id };
}

const payoutBody = (from: string, to: string, amount: number, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: "ACCOUNT", accountId: from },
  destination: { destinationType: "ACCOUNT", accountId: to },
  lockedCurrencySide: "SENDING",
  lockedCurrencyAmount: amount,
  ...extra,
});

// Every corridor but the USD ones (covered in test/payouts) and SWIFT (its currency is the request's).
const foreign = corridors.filter((c) => c.currency !== "USD" && c.accountType !== "SWIFT_ACCOUNT");

describe("payouts across borders: every corridor's account type, priced at the cached rate, over its first usable rail", () => {
  test.each(foreign.map((c) => [c.accountType, c] as const))(
    "USD to %s: 201 AUTO on the first rail of the corridor that can pay the account; executed, it settles at the rail's documented time",
    async (_type, corridor) => {
      const client = await platformClient(server);
      const { accountId, externalId } = await corridorPayer(client, corridor);
      const res = await client.post<Quote>("/quotes", payoutBody(accountId, externalId, 10_000));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const quote = res.body;
      expect(quote.receivingCurrency.code).toBe(corridor.currency);
      expect(quote.railSelectionMode).toBe("AUTO");
      const account = accountInfo(corridor, corridor.withSuffix("000"));
      expect(quote.paymentRail).toBe(usableRails(corridor.currency, account)[0]);
      const decimals = { from: 2, to: currency(corridor.currency).decimals };
      const net = quote.totalSendingAmount - quote.feesIncluded;
      expect(quote.totalReceivingAmount).toBe(
        convertMinorUnits(net, parseRate(String(quote.exchangeRate)), decimals, "down"),
      );
      const executed = await client.post<Quote>(`/quotes/${quote.id}/execute`, {});
      expect(executed.body.status).toBe("PROCESSING");
      const row = (await client.get<Transaction>(`/transactions/${quote.transactionId}`)).body;
      expect(row.receivedAmount).toMatchObject({
        amount: quote.totalReceivingAmount,
        currency: { code: corridor.currency },
      });
      const expected = expectedSettlementFor({
        rail: quote.paymentRail as never,
        currency: corridor.currency,
        now: new Date(row.createdAt),
      });
      expect(row.expectedSettlementAt).toBe(expected.toISOString());
      await advance(client, expected);
      await server.jobs.runDue();
      expect((await client.get<Transaction>(`/transactions/${quote.transactionId}`)).body.status).toBe(
        "COMPLETED",
      );
      expect(await changesOf(server, quote.transactionId)).toEqual([{ amount: -10_000, fee: 0 }]);
      expect(await eventsOf(server, quote.transactionId)).toEqual(
        expect.arrayContaining(["OUTGOING_PAYMENT.PROCESSING", "OUTGOING_PAYMENT.COMPLETED"]),
      );
    },
  );
});

describe("payouts across borders: rails, limits and outcomes", () => {
  const byType = (type: string) => corridors.find((c) => c.accountType === type) as Corridor;

  test("automatic selection passes over a rail whose cap is below the amount: PHP over INSTAPAY up to PHP 50,000, PESONET above", async () => {
    const client = await platformClient(server);
    const { accountId, externalId } = await corridorPayer(client, byType("PHP_ACCOUNT"));
    const small = await client.post<Quote>("/quotes", payoutBody(accountId, externalId, 10_000));
    expect(small.body.paymentRail).toBe("INSTAPAY");
    const large = await client.post<Quote>("/quotes", payoutBody(accountId, externalId, 1_000_000));
    expect(large.body.totalReceivingAmount).toBeGreaterThan(5_000_000);
    expect(large.body).toMatchObject({ paymentRail: "PESONET", railSelectionMode: "AUTO" });
  });

  test("a pinned rail the corridor serves -> MANUAL (EUR over SEPA); one it does not -> 400 on destination.paymentRail", async () => {
    const client = await platformClient(server);
    const { accountId, externalId } = await corridorPayer(client, byType("EUR_ACCOUNT"));
    const sepa = await client.post<Quote>(
      "/quotes",
      payoutBody(accountId, externalId, 1_000, {
        destination: { destinationType: "ACCOUNT", accountId: externalId, paymentRail: "SEPA" },
      }),
    );
    expect(sepa.status).toBe(201);
    expect(sepa.body).toMatchObject({ paymentRail: "SEPA", railSelectionMode: "MANUAL" });
    const pix = await client.post<ErrorBody>(
      "/quotes",
      payoutBody(accountId, externalId, 1_000, {
        destination: { destinationType: "ACCOUNT", accountId: externalId, paymentRail: "PIX" },
      }),
    );
    expect(pix.status).toBe(400);
    expect(pix.body.details?.errors.map((e) => e.field)).toEqual(["destination.paymentRail"]);
  });

  test("a receiving amount above the corridor's maximum -> 400 TRANSACTION_SIZE_LIMIT_EXCEEDED, nothing created", async () => {
    const client = await platformClient(server);
    const { accountId, externalId } = await corridorPayer(client, byType("MXN_ACCOUNT"));
    const res = await client.post<ErrorBody>(
      "/quotes",
      payoutBody(accountId, externalId, 5_000_000_000, {
        lockedCurrencySide: "RECEIVING",
        lockedCurrencyAmount: 9_000_000_000_000,
      }),
    );
    expect(res.status).toBe(400);
    expect(["TRANSACTION_SIZE_LIMIT_EXCEEDED", "AMOUNT_OUT_OF_RANGE"]).toContain(res.body.code);
  });

  test("destination.currency other than the account's -> 400 naming it", async () => {
    const client = await platformClient(server);
    const { accountId, externalId } = await corridorPayer(client, byType("BRL_ACCOUNT"));
    const res = await client.post<ErrorBody>(
      "/quotes",
      payoutBody(accountId, externalId, 1_000, {
        destination: { destinationType: "ACCOUNT", accountId: externalId, currency: "EUR" },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["destination.currency"]);
  });

  test("sandbox outcome by the account number's suffix: 004 -> FAILED ACCOUNT_CANNOT_RECEIVE at settlement, the debit refunded", async () => {
    const client = await platformClient(server);
    const corridor = byType("GBP_ACCOUNT");
    const { accountId, externalId } = await corridorPayer(
      client,
      corridor,
      accountInfo(corridor, corridor.withSuffix("004")),
    );
    const quote = (
      await client.post<Quote>(
        "/quotes",
        payoutBody(accountId, externalId, 2_000, { immediatelyExecute: true }),
      )
    ).body;
    const row = (await client.get<Transaction>(`/transactions/${quote.transactionId}`)).body;
    await advance(client, row.expectedSettlementAt as string);
    await server.jobs.runDue();
    const failed = (
      await client.get<Transaction & { failureReason?: string }>(`/transactions/${quote.transactionId}`)
    ).body;
    expect(failed).toMatchObject({ status: "FAILED", failureReason: "ACCOUNT_CANNOT_RECEIVE" });
    expect(await changesOf(server, quote.transactionId)).toEqual([
      { amount: -2_000, fee: 0 },
      { amount: 2_000, fee: 0 },
    ]);
  });
});
