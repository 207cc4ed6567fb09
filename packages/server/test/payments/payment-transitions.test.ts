import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/core/ids.js";
import {
  initialStates,
  insertPayment,
  transitionEvent,
  transitionPayment,
} from "../../src/payments/lifecycle.js";
import { transactionStatuses } from "../../src/payments/schemas.js";
import { insertTransactions, lockTransaction, type TransactionRow } from "../../src/payments/store.js";
import { startServer, type TestServer } from "../harness.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const NOW = new Date("2026-11-02T15:00:00.000Z");

function payment(type: TransactionRow["type"], status: string): TransactionRow {
  return {
    id: newId("Transaction"),
    platform_id: server.platform.platformId,
    type,
    status,
    account_id: newId("InternalAccount"),
    customer_id: null,
    currency: "USD",
    sent_amount: 1_000,
    received_amount: 1_000,
    fees: 0,
    platform_fees: 0,
    quote_id: null,
    payment_rail: null,
    rail_selection_mode: null,
    failure_reason: null,
    pending_reason: null,
    description: null,
    reference: null,
    source: { sourceType: "ACCOUNT" },
    destination: { destinationType: "ACCOUNT" },
    details: {},
    settled_at: null,
    created_at: NOW,
    updated_at: NOW,
  };
}

/** The event types written for one transaction (every payment event's payload names it). */
async function eventsOf(id: string): Promise<string[]> {
  const rows = await server.db.query<{ type: string }>(
    "SELECT type FROM webhook_events WHERE platform_id = $1 AND body LIKE $2 ORDER BY id",
    [server.platform.platformId, `%"id":"${id}"%`],
  );
  return rows.map((row) => row.type);
}

const directions = ["OUTGOING", "INCOMING"] as const;
const pairs = directions.flatMap((type) =>
  transactionStatuses.flatMap((from) => transactionStatuses.map((to) => ({ type, from, to }))),
);
const allowed = pairs.filter(({ type, from, to }) => transitionEvent(type, from, to) !== undefined);
const forbidden = pairs.filter(({ type, from, to }) => transitionEvent(type, from, to) === undefined);

describe("payment transitions: every allowed transition writes the row and exactly one event", () => {
  test.each(allowed)("$type $from → $to", async ({ type, from, to }) => {
    const row = payment(type, from);
    await server.db.transaction((tx) => insertTransactions(tx, [row]));
    const later = new Date(NOW.getTime() + 1_000);
    await server.db.transaction(async (tx) => {
      const locked = await lockTransaction(tx, row.platform_id, row.id);
      if (!locked) throw new Error("row missing");
      await transitionPayment(tx, locked, to, { now: later });
    });
    const stored = await server.db.transaction((tx) => lockTransaction(tx, row.platform_id, row.id));
    expect(stored?.status).toBe(to);
    expect(stored?.updated_at.toISOString()).toBe(later.toISOString());
    expect(await eventsOf(row.id)).toEqual([transitionEvent(type, from, to)]);
  });
});

describe("payment transitions: every forbidden transition is refused and changes nothing", () => {
  test.each(forbidden)("$type $from → $to", async ({ type, from, to }) => {
    const row = payment(type, from);
    await server.db.transaction((tx) => insertTransactions(tx, [row]));
    await expect(
      server.db.transaction(async (tx) => {
        const locked = await lockTransaction(tx, row.platform_id, row.id);
        if (!locked) throw new Error("row missing");
        await transitionPayment(tx, locked, to, { now: NOW });
      }),
    ).rejects.toThrow(/is not allowed/);
    const stored = await server.db.transaction((tx) => lockTransaction(tx, row.platform_id, row.id));
    expect(stored?.status).toBe(from);
    expect(await eventsOf(row.id)).toEqual([]);
  });
});

describe("payment start: a payment starts only in its direction's initial states, with its one event", () => {
  const starts = directions.flatMap((type) => transactionStatuses.map((status) => ({ type, status })));
  test.each(starts)("$type starting $status", async ({ type, status }) => {
    const row = payment(type, status);
    const family = type === "INCOMING" ? "INCOMING_PAYMENT" : "OUTGOING_PAYMENT";
    if (initialStates[type].includes(status)) {
      await server.db.transaction((tx) => insertPayment(tx, row));
      expect(await eventsOf(row.id)).toEqual([`${family}.${status}`]);
    } else {
      await expect(server.db.transaction((tx) => insertPayment(tx, row))).rejects.toThrow(/cannot start/);
      const stored = await server.db.transaction((tx) => lockTransaction(tx, row.platform_id, row.id));
      expect(stored).toBeUndefined();
    }
  });
});

test("payment transitions: the table allows the lifecycle the service runs and nothing from a final state", () => {
  expect(allowed.map(({ type, from, to }) => `${type} ${from}→${to}`).sort()).toEqual(
    [
      "OUTGOING PENDING→PROCESSING",
      "OUTGOING PENDING→COMPLETED",
      "OUTGOING PENDING→EXPIRED",
      "OUTGOING PENDING→FAILED",
      "OUTGOING PROCESSING→COMPLETED",
      "OUTGOING PROCESSING→FAILED",
      "OUTGOING COMPLETED→FAILED",
      "INCOMING PENDING→COMPLETED",
      "INCOMING PENDING→FAILED",
      "INCOMING COMPLETED→FAILED",
      "INCOMING COMPLETED→REFUNDED",
    ].sort(),
  );
});
