import { afterEach, describe, expect, test } from "vitest";
import {
  ConflictError,
  PaysvcClient,
  PaysvcError,
  type Statement,
  StatementIntegrityError,
} from "../src/index.js";
import { type Peer, startPeer } from "./peer.js";
import {
  ACCOUNT_ID,
  card,
  change,
  type Fixture,
  OCTOBER,
  pages,
  payment,
  statementResponder,
  USD,
} from "./statement-fixture.js";

const credentials = { clientId: "0123456789abcdef0123456789abcdef", clientSecret: "secret" };
let peer: Peer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

async function clientFor(fixture: Fixture) {
  peer = await startPeer(statementResponder(fixture));
  return { paysvc: new PaysvcClient({ baseUrl: peer.baseUrl, ...credentials }), peer };
}

async function integrityFailure(call: Promise<Statement>): Promise<StatementIntegrityError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StatementIntegrityError);
  return error as StatementIntegrityError;
}

const T1 = "Transaction:0199a0a0-0000-7000-8000-0000000000a1";
const T2 = "Transaction:0199a0a0-0000-7000-8000-0000000000a2";
const C1 = "CardTransaction:0199a0a0-0000-7000-8000-0000000000c1";
const C2 = "CardTransaction:0199a0a0-0000-7000-8000-0000000000c2";

describe("statements.build over a stand-in peer", () => {
  test("statement window: pages of 200 are followed by cursor and each transaction is read once", async () => {
    const changes = [change(T1, 10_000), change(T2, -2_550, -50, 5), change(T1, -1_000, 0, 9)];
    const transactions = [
      payment(T1, { description: "Payroll", counterpartyInformation: { name: "Acme Corp" } }),
      payment(T2, {
        type: "OUTGOING",
        direction: "DEBIT",
        paymentRail: "ACH",
        destination: { destinationType: "ACCOUNT", accountId: "ExternalAccount:0199-x-4321" },
      }),
    ];
    const { paysvc, peer } = await clientFor({ windows: pages(changes, 500), transactions });
    const statement = await paysvc.statements.build({ accountId: ACCOUNT_ID, month: "2026-10" });

    const windowRequests = peer.requests.filter((r) => r.url.includes("balance-changes"));
    expect(windowRequests).toHaveLength(2);
    const first = new URL(windowRequests[0]?.url ?? "", "http://x").searchParams;
    expect(Object.fromEntries(first)).toEqual({ from: OCTOBER.start, to: OCTOBER.end, limit: "200" });
    const second = new URL(windowRequests[1]?.url ?? "", "http://x").searchParams;
    expect(second.get("cursor")).toBe(changes[1]?.id);
    const reads = peer.requests.filter((r) => r.url.includes("/transactions/")).map((r) => r.url);
    expect(reads.sort()).toEqual([T1, T2].map((id) => `/2025-10-13/transactions/${encodeURIComponent(id)}`));

    expect(statement).toMatchObject({
      account: { id: ACCOUNT_ID, maskedNumber: "****5678", type: "INTERNAL_FIAT" },
      currency: USD,
      period: OCTOBER,
      openingBalance: 500,
      closingBalance: 500 + 10_000 - 2_550 - 1_000,
      totals: { credits: 10_000, debits: -3_550, fees: -50 },
    });
    expect(statement.lines.map((l) => [l.date, l.type, l.amount, l.fee])).toEqual([
      ["2026-10-02", "INCOMING", 10_000, 0],
      ["2026-10-05", "OUTGOING", -2_550, -50],
      ["2026-10-09", "INCOMING", -1_000, 0],
    ]);
    expect(statement.lines[0]).toMatchObject({ description: "Payroll", counterparty: "Acme Corp" });
    expect(statement.lines[1]).toMatchObject({ rail: "ACH", counterparty: "account ending 4321" });
    expect(statement.lines[2]?.description).toBe("Payroll (returned)");
  });

  test("feesAsSeparateLines: a change with a fee becomes amount − fee and fee, and the lines still sum", async () => {
    const changes = [change(T1, 10_000), change(T2, -1_050, -50, 4), change(T2, -200, -200, 4)];
    const transactions = [payment(T1), payment(T2, { type: "OUTGOING", direction: "DEBIT" })];
    const { paysvc } = await clientFor({ windows: pages(changes, 0, 200), transactions });
    const statement = await paysvc.statements.build({
      accountId: ACCOUNT_ID,
      month: "2026-10",
      feesAsSeparateLines: true,
    });
    expect(statement.lines.map((l) => [l.type, l.amount, l.fee])).toEqual([
      ["INCOMING", 10_000, 0],
      ["OUTGOING", -1_000, 0],
      ["FEE", -50, -50],
      ["FEE", -200, -200],
    ]);
    const sum = statement.lines.reduce((total, l) => total + l.amount, 0);
    expect(statement.openingBalance + sum).toBe(statement.closingBalance);
    expect(statement.totals).toEqual({ credits: 10_000, debits: -1_250, fees: -250 });
  });

  test("statement window: openingBalance + sum(amount) != closingBalance → StatementIntegrityError, no statement", async () => {
    const windows = pages([change(T1, 10_000), change(T1, 5, 0, 3), change(T1, 7, 0, 4)], 0);
    const broken = windows.map((w) => ({ ...w, closingBalance: { amount: 10_000, currency: USD } }));
    const { paysvc, peer } = await clientFor({ windows: broken, transactions: [payment(T1)] });
    const error = await integrityFailure(
      paysvc.statements.build({ accountId: ACCOUNT_ID, month: "2026-10" }),
    );
    expect(error).toBeInstanceOf(PaysvcError);
    expect(error).toMatchObject({
      code: "STATEMENT_INTEGRITY_FAILED",
      check: "BALANCE_IDENTITY",
      status: undefined,
    });
    expect(error.reason).toMatch(/Do not send this statement; contact paysvc support/);
    expect(error.details).toMatchObject({
      accountId: ACCOUNT_ID,
      periodStart: OCTOBER.start,
      openingBalance: 0,
      sumOfAmounts: 10_012,
      closingBalance: 10_000,
      requestIds: ["req_peer2", "req_peer3"],
    });
    expect(peer.requests.some((r) => r.url.includes("/transactions/"))).toBe(false);
  });

  test("every page must describe the same window: a second page with another closingBalance is refused", async () => {
    const windows = pages([change(T1, 100), change(T1, 200, 0, 3), change(T1, 300, 0, 4)], 0);
    const tampered = windows.map((w, i) =>
      i === 1 ? { ...w, closingBalance: { amount: 999, currency: USD } } : w,
    );
    const { paysvc } = await clientFor({ windows: tampered, transactions: [payment(T1)] });
    const error = await integrityFailure(
      paysvc.statements.build({ accountId: ACCOUNT_ID, month: "2026-10" }),
    );
    expect(error.check).toBe("PAGE_MISMATCH");
  });

  test.each([
    [
      "a window other than the month asked for",
      { windowStart: "2026-10-01T00:00:00-06:00" },
      "WINDOW_MISMATCH",
    ],
    ["a totalCount that disagrees with the rows read", { totalCount: 7 }, "COUNT_MISMATCH"],
    ["hasMore without a nextCursor", { hasMore: true }, "INVALID_PAGE"],
  ])("%s → StatementIntegrityError", async (_name, patch, check) => {
    const windows = pages([change(T1, 100)], 0).map((w) => ({ ...w, ...patch }));
    const { paysvc } = await clientFor({ windows, transactions: [payment(T1)] });
    const error = await integrityFailure(
      paysvc.statements.build({ accountId: ACCOUNT_ID, month: "2026-10" }),
    );
    expect(error.check).toBe(check);
  });

  test("409 NOT_YET_AVAILABLE with Retry-After: 0 is waited out, then the 200 window is used", async () => {
    const notYet = {
      status: 409,
      headers: { "retry-after": "0" },
      body: { code: "NOT_YET_AVAILABLE", reason: "Card settlement for the window end has not closed." },
    };
    const { paysvc, peer } = await clientFor({
      windows: pages([change(T1, 100)], 0),
      transactions: [payment(T1)],
      before: [notYet, notYet],
    });
    const statement = await paysvc.statements.build({ accountId: ACCOUNT_ID, month: "2026-10" });
    expect(statement.closingBalance).toBe(100);
    expect(peer.requests.filter((r) => r.url.includes("balance-changes"))).toHaveLength(3);
  });

  test("a Retry-After longer than maxWaitMs is not waited for: the typed ConflictError is thrown", async () => {
    const notYet = {
      status: 409,
      headers: { "retry-after": "3600" },
      body: { code: "NOT_YET_AVAILABLE", reason: "Later." },
    };
    const { paysvc, peer } = await clientFor({ windows: pages([], 0), transactions: [], before: [notYet] });
    const started = Date.now();
    const error = await paysvc.statements
      .build({ accountId: ACCOUNT_ID, month: "2026-10", maxWaitMs: 5_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: "NOT_YET_AVAILABLE", retryAfterSeconds: 3600 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(peer.requests.filter((r) => r.url.includes("balance-changes"))).toHaveLength(1);
  });

  test("declined card authorizations (status DECLINED) are left out of the lines; settled card rows keep merchant and location", async () => {
    const changes = [change(T1, 10_000), change(C1, 0, 0, 3), change(C2, -450, 0, 4)];
    const transactions = [
      payment(T1),
      card(C1, { status: "DECLINED", cardDeclinedReason: "SPEND_LIMIT_EXCEEDED" }),
      card(C2, { settledAmount: { amount: 450, currency: USD } }),
    ];
    const { paysvc } = await clientFor({ windows: pages(changes, 0), transactions });
    const statement = await paysvc.statements.build({ accountId: ACCOUNT_ID, month: "2026-10" });
    expect(statement.lines.map((l) => l.transactionId)).toEqual([T1, C2]);
    expect(statement.lines[1]).toMatchObject({
      type: "CARD",
      amount: -450,
      description: "Card purchase at Corner Cafe, Austin, TX",
      merchant: { descriptor: "Corner Cafe", city: "Austin", state: "TX" },
    });
    expect(statement.closingBalance).toBe(9_550);
  });

  test("card lines: a refund row is a refund (and its reversal says so); a CREDIT row with no purchase is a merchant credit", async () => {
    const C3 = "CardTransaction:0199a0a0-0000-7000-8000-0000000000c3";
    const changes = [
      change(C2, -1_000, 0, 3),
      change(C1, 400, 0, 4),
      change(C1, -400, 0, 5),
      change(C3, 250, 0, 6),
    ];
    const transactions = [
      card(C2, { settledAmount: { amount: 1_000, currency: USD } }),
      card(C1, { direction: "CREDIT", status: "VOIDED", originalTransactionId: C2 }),
      card(C3, { direction: "CREDIT", merchant: { descriptor: "Airline" } }),
    ];
    const { paysvc } = await clientFor({ windows: pages(changes, 2_000), transactions });
    const statement = await paysvc.statements.build({ accountId: ACCOUNT_ID, month: "2026-10" });
    expect(statement.lines.map((l) => [l.amount, l.description])).toEqual([
      [-1_000, "Card purchase at Corner Cafe, Austin, TX"],
      [400, "Card refund at Corner Cafe, Austin, TX"],
      [-400, "Card refund reversed at Corner Cafe, Austin, TX"],
      [250, "Card credit at Airline"],
    ]);
  });

  test("a DECLINED row that moved money is an integrity failure, not a silently dropped line", async () => {
    const changes = [change(T1, 10_000), change(C1, -450, 0, 3)];
    const transactions = [payment(T1), card(C1, { status: "DECLINED", cardDeclinedReason: "BLOCKED" })];
    const { paysvc } = await clientFor({ windows: pages(changes, 0), transactions });
    const error = await integrityFailure(
      paysvc.statements.build({ accountId: ACCOUNT_ID, month: "2026-10" }),
    );
    expect(error.check).toBe("DECLINED_ROW_MOVED_MONEY");
  });

  test("a month that is not YYYY-MM is a TypeError before any request", async () => {
    const { paysvc, peer } = await clientFor({ windows: [], transactions: [] });
    await expect(paysvc.statements.build({ accountId: ACCOUNT_ID, month: "2026-13" })).rejects.toThrow(
      TypeError,
    );
    expect(peer.requests).toHaveLength(0);
  });
});
