import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ControlledClock } from "../../server/src/core/clock.js";
import { startServer, type TestServer } from "../../server/test/harness.js";
import { ConflictError, PaysvcClient, renderStatement, type Statement } from "../src/index.js";
import { withEndUserTerms } from "./end-user-terms.js";

// A service clock that stands still, so the platform's sandbox clock is exactly where the test puts it.
// March 2026 has a DST change inside it: [2026-03-01T00:00:00-06:00, 2026-04-01T00:00:00-05:00).
const LAG_MS = 60_000;
const MARCH = { start: "2026-03-01T00:00:00-06:00", end: "2026-04-01T00:00:00-05:00" };

let server: TestServer;
let paysvc: PaysvcClient;
beforeAll(async () => {
  server = await startServer({
    clock: new ControlledClock(new Date("2026-02-20T00:00:00Z")),
    settlementLagMs: LAG_MS,
  });
  paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...server.platform });
});
afterAll(() => server.close());

async function usdAccount(fullName: string) {
  const customer = await paysvc.customers.create({
    customerType: "INDIVIDUAL",
    fullName,
    ...withEndUserTerms,
  });
  const page = await paysvc.internalAccounts.listForCustomers({
    customerId: customer.id,
    type: "INTERNAL_FIAT",
  });
  const account = page.data.find((a) => a.balance.currency.code === "USD");
  if (!account) throw new Error("no USD account");
  return account;
}

/** A same-currency transfer between internal accounts, executed at once (`POST /quotes`). */
async function transfer(from: string, to: string, amount: number) {
  const res = await server.client.post<{ transactionId: string; feesIncluded: number }>("/quotes", {
    source: { sourceType: "ACCOUNT", accountId: from },
    destination: { destinationType: "ACCOUNT", accountId: to },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: amount,
    immediatelyExecute: true,
    description: "Rent share",
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe("statements.build against the running server", () => {
  let alice: string;
  let statement: Statement;

  test("a month with deposits and a fee-bearing transfer builds; the window is waited for until settled", async () => {
    await paysvc.config.update({ feeConfigs: [{ rail: "INTERNAL", fixedAmount: 50 }] });
    const a = await usdAccount("Alice Example");
    const bob = (await usdAccount("Bob Example")).id;
    alice = a.id;
    await paysvc.sandbox.advanceClock("2026-03-01T05:59:59.000Z"); // Feb 28, 23:59:59 CST: before the period
    await paysvc.sandbox.fund(alice, 100_000);
    await paysvc.sandbox.advanceClock("2026-03-02T15:00:00.000Z");
    await paysvc.sandbox.fund(alice, 50_000);
    await paysvc.sandbox.advanceClock(new Date("2026-03-10T15:00:00.000Z"));
    await paysvc.sandbox.fund(bob, 20_000);
    const out = await transfer(alice, bob, 10_000);
    expect(out.feesIncluded).toBe(50);
    await paysvc.sandbox.advanceClock("2026-03-31T12:00:00.000Z");
    await transfer(bob, alice, 2_000);
    await paysvc.sandbox.advanceClock("2026-04-01T05:00:00.000Z"); // exactly the end: the next period
    await paysvc.sandbox.fund(alice, 7_000);

    await paysvc.sandbox.advanceClock("2026-04-01T05:00:30.000Z");
    const early = await paysvc.statements
      .build({ accountId: alice, month: "2026-03", maxWaitMs: 0 })
      .catch((e) => e);
    expect(early).toBeInstanceOf(ConflictError);
    expect(early).toMatchObject({ code: "NOT_YET_AVAILABLE", retryAfterSeconds: 30 });

    const clock = await paysvc.sandbox.advanceClock("2026-04-01T05:01:00.000Z"); // end + lag
    expect(clock.now).toBe("2026-04-01T05:01:00.000Z");
    expect((await paysvc.sandbox.getClock()).now).toBe(clock.now);
    statement = await paysvc.statements.build({ accountId: alice, month: "2026-03" });

    const last4 = a.fundingPaymentInstructions[0]?.accountOrWalletInfo.accountNumber.slice(-4);
    expect(statement.account).toEqual({
      id: alice,
      maskedNumber: `****${last4}`,
      customerId: a.customerId,
      type: "INTERNAL_FIAT",
    });
    expect(statement.period).toEqual({ month: "2026-03", ...MARCH });
    expect(statement.openingBalance).toBe(100_000);
    expect(statement.closingBalance).toBe(100_000 + 50_000 - 10_000 + 1_950);
    const sum = statement.lines.reduce((total, line) => total + line.amount, 0);
    expect(statement.openingBalance + sum).toBe(statement.closingBalance);
    expect(statement.lines.map((l) => [l.date, l.type, l.amount, l.fee])).toEqual([
      ["2026-03-02", "INCOMING", 50_000, 0],
      ["2026-03-10", "OUTGOING", -10_000, -50],
      ["2026-03-31", "INCOMING", 1_950, 0],
    ]);
    expect(statement.totals).toEqual({ credits: 51_950, debits: -10_000, fees: -50 });
  });

  test("each line's transaction is the one GET /transactions/{id} returns", async () => {
    for (const line of statement.lines) {
      const transaction = await paysvc.transactions.get(line.transactionId);
      expect(transaction.type).toBe(line.type);
    }
    const page = await paysvc.transactions.list({ type: "OUTGOING", limit: 1 });
    expect(page.data[0]?.type).toBe("OUTGOING");
    const all = [];
    for await (const transaction of paysvc.transactions.listAll({ limit: 2 })) all.push(transaction.id);
    expect(all).toEqual(expect.arrayContaining(statement.lines.map((l) => l.transactionId)));
  });

  test("feesAsSeparateLines splits the transfer into amount − fee and fee; the lines still sum", async () => {
    const split = await paysvc.statements.build({
      accountId: alice,
      month: "2026-03",
      feesAsSeparateLines: true,
    });
    expect(split.lines.map((l) => [l.type, l.amount, l.fee])).toEqual([
      ["INCOMING", 50_000, 0],
      ["OUTGOING", -9_950, 0],
      ["FEE", -50, -50],
      ["INCOMING", 1_950, 0],
    ]);
    const sum = split.lines.reduce((total, line) => total + line.amount, 0);
    expect(split.openingBalance + sum).toBe(split.closingBalance);
    expect(split.totals).toEqual(statement.totals);
  });

  test("the statement renders as text, html and json", () => {
    const text = renderStatement(statement, "text");
    if (process.env.SHOW_STATEMENT) console.log(text);
    expect(text).toContain(`USD account ${statement.account.maskedNumber}`);
    expect(text).toContain("Opening balance on March 1, 2026: $1,000.00");
    expect(text).toContain("Closing balance on March 31, 2026: $1,419.50");
    expect(text).toContain("Total fees: -$0.50");
    const html = renderStatement(statement, "html", { questionsContact: "support@platform.example" });
    expect(html).toContain('<td class="num">-$100.00</td>');
    expect(html).toContain("support@platform.example");
    expect(JSON.parse(renderStatement(statement, "json"))).toEqual(statement);
  });

  test("the receipt: the first confirm is 201, a repeat 200 with the same record; deliveries list it", async () => {
    const first = await paysvc.statements.confirm(alice, { periodStart: statement.period.start });
    expect(first.lastResponse.status).toBe(201);
    expect(first).toMatchObject({ accountId: alice, periodStart: MARCH.start, periodEnd: MARCH.end });
    const again = await paysvc.statements.confirm(alice, { periodStart: statement.period.start });
    expect(again.lastResponse.status).toBe(200);
    expect(again).toEqual(first);
    const deliveries = await paysvc.statements.listDeliveries(alice);
    expect(deliveries.data).toEqual([{ ...first, fetchedAt: expect.any(String) }]);
    const all = [];
    for await (const record of paysvc.statements.listAllDeliveries(alice, { limit: 1 })) all.push(record);
    expect(all).toEqual(deliveries.data);
  });
});
