import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ControlledClock } from "../../server/src/core/clock.js";
import { startServer, type TestServer } from "../../server/test/harness.js";
import {
  type CardMerchant,
  type CardTransaction,
  ConflictError,
  PaysvcClient,
  renderStatement,
} from "../src/index.js";

// A service clock that stands still, so the platform's sandbox clock is exactly where the test puts it
// (as in statements.test.ts). The settlement lag is one hour: a window [from, to) is readable from
// to + 1 h, and clearings may be dated back by up to an hour (conventions §3.1, §6.5).
const LAG_MS = 60 * 60_000;
const JUNE = { start: "2026-06-01T00:00:00-05:00", end: "2026-07-01T00:00:00-05:00" };
const USD = { code: "USD" };
const CAFE: CardMerchant = {
  descriptor: "Corner Cafe",
  mcc: "5814",
  country: "US",
  city: "Austin",
  state: "TX",
};

let server: TestServer;
let paysvc: PaysvcClient;
beforeAll(async () => {
  server = await startServer({
    clock: new ControlledClock(new Date("2026-05-20T00:00:00Z")),
    settlementLagMs: LAG_MS,
  });
  paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...server.platform });
  await paysvc.config.update({ sandboxSkipVerificationPaperwork: true });
});
afterAll(() => server.close());

async function cardholderWithCard(fullName: string) {
  const customer = await paysvc.customers.create({ customerType: "INDIVIDUAL", fullName });
  const accounts = await paysvc.internalAccounts.listForCustomers({
    customerId: customer.id,
    currency: "USD",
    type: "INTERNAL_FIAT",
  });
  const accountId = accounts.data[0]?.id;
  if (!accountId) throw new Error(`customer ${customer.id} has no USD account`);
  const created = await paysvc.cards.create({
    cardholderId: customer.id,
    form: "VIRTUAL",
    fundingSources: [accountId],
  });
  await server.jobs.runDue();
  const card = await paysvc.cards.get(created.id);
  expect(card.status).toBe("ACTIVE");
  return { customerId: customer.id, accountId, cardId: card.id };
}

async function cardRow(id: string): Promise<CardTransaction> {
  const row = await paysvc.transactions.get(id);
  if (row.type !== "CARD") throw new Error(`${id} is not a CARD row`);
  return row;
}

describe("card statements built with the SDK against the running server", () => {
  test("a statement built with the SDK for a month with card activity lists clearings and refunds, and no declined authorization", async () => {
    const { accountId, cardId } = await cardholderWithCard("Carla Cardholder");
    await paysvc.sandbox.advanceClock("2026-05-31T17:00:00.000Z"); // May 31, before the period
    await paysvc.sandbox.fund(accountId, 50_000);

    // June 3: a 100.00 purchase, cleared in two parts (June 5 and June 8): two changes, two lines.
    await paysvc.sandbox.advanceClock("2026-06-03T15:00:00.000Z");
    const auth = await paysvc.sandbox.simulateCard(cardId, "authorization", {
      amount: 10_000,
      currency: USD,
      merchant: CAFE,
    });
    const purchase = auth.cardTransactionId;
    expect((await cardRow(purchase)).status).toBe("AUTHORIZED");
    await paysvc.sandbox.advanceClock("2026-06-05T15:00:00.000Z");
    await paysvc.sandbox.simulateCard(cardId, "clearing", { cardTransactionId: purchase, amount: 4_000 });
    expect((await cardRow(purchase)).status).toBe("PARTIALLY_SETTLED");
    await paysvc.sandbox.advanceClock("2026-06-08T15:00:00.000Z");
    await paysvc.sandbox.simulateCard(cardId, "clearing", { cardTransactionId: purchase, amount: 6_000 });

    // June 12: the merchant returns 25.00: a refund row of its own, one credit change.
    await paysvc.sandbox.advanceClock("2026-06-12T15:00:00.000Z");
    const returned = await paysvc.sandbox.simulateCard(cardId, "return", {
      cardTransactionId: purchase,
      amount: 2_500,
    });
    const refund = returned.cardTransactionId;
    expect(refund).not.toBe(purchase);

    // June 15: a declined authorization (descriptor suffix 002): no hold, no change, no line.
    await paysvc.sandbox.advanceClock("2026-06-15T15:00:00.000Z");
    const declinedAuth = await paysvc.sandbox.simulateCard(cardId, "authorization", {
      amount: 1_000,
      currency: USD,
      merchant: { descriptor: "Gadget Store 002", city: "Dallas", state: "TX" },
    });
    const declined = declinedAuth.cardTransactionId;

    expect(await cardRow(purchase)).toMatchObject({
      status: "SETTLED",
      direction: "DEBIT",
      settledAmount: { amount: 10_000 },
      refundedAmount: { amount: 2_500 },
      settlementSummary: { count: 2, totalAmount: 10_000 },
    });
    expect(await cardRow(refund)).toMatchObject({
      status: "SETTLED",
      direction: "CREDIT",
      originalTransactionId: purchase,
      settledAmount: { amount: 2_500 },
      authorizedAmount: { amount: 2_500 },
      merchant: CAFE,
    });
    expect(await cardRow(declined)).toMatchObject({
      status: "DECLINED",
      cardDeclinedReason: "INSUFFICIENT_FUNDS",
    });
    const account = await paysvc.internalAccounts.get(accountId);
    expect(account.totalBalance.amount).toBe(50_000 - 10_000 + 2_500);
    expect(account.balance.amount).toBe(account.totalBalance.amount);

    // Past the month end but inside the settlement lag the window is not available yet.
    await paysvc.sandbox.advanceClock("2026-07-01T05:30:00.000Z");
    const early = await paysvc.statements
      .build({ accountId, month: "2026-06", maxWaitMs: 0 })
      .catch((e) => e);
    expect(early).toBeInstanceOf(ConflictError);
    expect(early).toMatchObject({ code: "NOT_YET_AVAILABLE" });

    await paysvc.sandbox.advanceClock("2026-07-01T06:00:00.000Z"); // month end + lag
    const statement = await paysvc.statements.build({ accountId, month: "2026-06" });

    expect(statement.period).toEqual({ month: "2026-06", ...JUNE });
    expect(statement.openingBalance).toBe(50_000);
    expect(statement.closingBalance).toBe(42_500);
    const sum = statement.lines.reduce((total, line) => total + line.amount, 0);
    expect(statement.openingBalance + sum).toBe(statement.closingBalance);
    expect(statement.lines.map((l) => [l.date, l.type, l.amount, l.fee, l.transactionId])).toEqual([
      ["2026-06-05", "CARD", -4_000, 0, purchase],
      ["2026-06-08", "CARD", -6_000, 0, purchase],
      ["2026-06-12", "CARD", 2_500, 0, refund],
    ]);
    expect(statement.lines.map((l) => l.description)).toEqual([
      "Card purchase at Corner Cafe, Austin, TX",
      "Card purchase at Corner Cafe, Austin, TX",
      "Card refund at Corner Cafe, Austin, TX",
    ]);
    for (const line of statement.lines) expect(line.merchant).toEqual(CAFE);
    expect(statement.lines.some((l) => l.transactionId === declined)).toBe(false);
    expect(statement.totals).toEqual({ credits: 2_500, debits: -10_000, fees: 0 });

    const text = renderStatement(statement, "text");
    expect(text).toContain("Corner Cafe (Austin, TX)");
    expect(text).not.toContain("Gadget Store");
  });

  test("a clearing posted after the month end but dated inside it (effectiveAt, within the lag) is on that month's statement", async () => {
    const { accountId, cardId } = await cardholderWithCard("Dora Cardholder");
    await paysvc.sandbox.advanceClock("2026-07-28T15:00:00.000Z");
    await paysvc.sandbox.fund(accountId, 20_000);
    const auth = await paysvc.sandbox.simulateCard(cardId, "authorization", {
      amount: 3_000,
      currency: USD,
      merchant: { descriptor: "Night Diner", city: "Chicago", state: "IL" },
    });

    // Aug 1 00:10 CDT: the network clears the July 31 purchase, dated 23:50 CDT on July 31.
    await paysvc.sandbox.advanceClock("2026-08-01T05:10:00.000Z");
    await paysvc.sandbox.simulateCard(cardId, "clearing", {
      cardTransactionId: auth.cardTransactionId,
      amount: 3_000,
      effectiveAt: "2026-07-31T23:50:00-05:00",
    });
    await paysvc.sandbox.advanceClock("2026-08-01T06:00:00.000Z");
    const statement = await paysvc.statements.build({ accountId, month: "2026-07" });
    expect(statement.lines.map((l) => [l.date, l.type, l.amount, l.description])).toEqual([
      ["2026-07-28", "INCOMING", 20_000, expect.any(String)],
      ["2026-07-31", "CARD", -3_000, "Card purchase at Night Diner, Chicago, IL"],
    ]);
    expect(statement.openingBalance + 20_000 - 3_000).toBe(statement.closingBalance);
  });
});
