import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { postBalanceChanges } from "../../src/ledger/ledger.js";
import { newUsdAccount, startServer, type TestServer } from "../harness.js";

type Account = { id: string; balance: { amount: number }; totalBalance: { amount: number } };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const usdAccount = () => newUsdAccount(server.client);

async function invariantHolds(): Promise<void> {
  const drift = await server.db.query(
    `SELECT a.id, a.total_balance, COALESCE(sum(c.amount), 0)::int8 AS sum FROM internal_accounts a
     LEFT JOIN balance_changes c ON c.account_id = a.id GROUP BY a.id HAVING a.total_balance <> COALESCE(sum(c.amount), 0)`,
  );
  expect(drift).toEqual([]);
  const running = await server.db.query(
    `SELECT id FROM (SELECT id, balance_after, count_after,
       sum(amount) OVER (PARTITION BY account_id ORDER BY effective_at, id) AS expected,
       row_number() OVER (PARTITION BY account_id ORDER BY effective_at, id) AS position
     FROM balance_changes) r WHERE balance_after <> expected OR count_after <> position`,
  );
  expect(running).toEqual([]);
}

describe("ledger: balances are the sum of their changes", () => {
  test("sandbox funding makes one COMPLETED INCOMING transaction and one balance change", async () => {
    const accountId = await usdAccount();
    const res = await server.client.post<Account>(`/sandbox/internal-accounts/${accountId}/fund`, {
      amount: 12_345,
    });
    expect(res.status).toBe(200);
    expect(res.body.balance.amount).toBe(12_345);
    expect(res.body.totalBalance.amount).toBe(12_345);
    const txs = await server.client.get<{ data: Record<string, unknown>[] }>(
      `/transactions?accountIdentifier=${accountId}`,
    );
    expect(txs.body.data).toHaveLength(1);
    expect(txs.body.data[0]).toMatchObject({
      type: "INCOMING",
      status: "COMPLETED",
      direction: "CREDIT",
      receivedAmount: { amount: 12_345, currency: { code: "USD" } },
      destination: { destinationType: "ACCOUNT", accountId },
      fees: 0,
    });
    const read = await server.client.get(`/transactions/${txs.body.data[0]?.id}`);
    expect(read.body).toEqual(txs.body.data[0]);
    const changes = await server.db.query(
      "SELECT amount, fee, transaction_id FROM balance_changes WHERE account_id = $1",
      [accountId],
    );
    expect(changes).toEqual([{ amount: 12_345, fee: 0, transaction_id: txs.body.data[0]?.id }]);
    await invariantHolds();
  });

  test("funding writes INTERNAL_ACCOUNT.BALANCE_UPDATED and INCOMING_PAYMENT.COMPLETED to the outbox in the same transaction", async () => {
    const accountId = await usdAccount();
    await server.client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 500 });
    const events = await server.db.query<{ type: string; body: string }>(
      "SELECT type, body FROM webhook_events WHERE body LIKE $1 ORDER BY created_at, id",
      [`%${accountId}%`],
    );
    expect(events.map((e) => e.type).sort()).toEqual([
      "INCOMING_PAYMENT.COMPLETED",
      "INTERNAL_ACCOUNT.BALANCE_UPDATED",
    ]);
    const balanceEvent = JSON.parse(
      events.find((e) => e.type === "INTERNAL_ACCOUNT.BALANCE_UPDATED")?.body ?? "{}",
    );
    expect(balanceEvent).toMatchObject({
      type: "INTERNAL_ACCOUNT.BALANCE_UPDATED",
      data: { id: accountId, totalBalance: { amount: 500 } },
    });
    expect(balanceEvent.id).toMatch(/^Webhook:/);
  });

  test.each([[0], [-5], [100_000_000_001], [1.5], ["100"]])(
    "funding amount %j -> 400 INVALID_INPUT on amount",
    async (amount) => {
      const accountId = await usdAccount();
      const res = await server.client.post<{ code: string; details: { errors: { field: string }[] } }>(
        `/sandbox/internal-accounts/${accountId}/fund`,
        { amount },
      );
      expect(res.status).toBe(400);
      expect(res.body.details.errors.map((e) => e.field)).toEqual(["amount"]);
    },
  );

  test("funding an unknown account -> 404 ACCOUNT_NOT_FOUND", async () => {
    const res = await server.client.post("/sandbox/internal-accounts/InternalAccount:nope/fund", {
      amount: 1,
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
  });

  test("a debit beyond the available balance is refused with INSUFFICIENT_FUNDS and writes nothing", async () => {
    const accountId = await usdAccount();
    await server.client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 100 });
    await expect(
      server.db.transaction((tx) =>
        postBalanceChanges(tx, {
          platformId: server.platform.platformId,
          now: new Date(),
          postings: [{ accountId, amount: -101, transactionId: "Transaction:test" }],
        }),
      ),
    ).rejects.toMatchObject({ code: "INSUFFICIENT_FUNDS" });
    const account = await server.client.get<Account>(`/internal-accounts/${accountId}`);
    expect(account.body.totalBalance.amount).toBe(100);
    await invariantHolds();
  });

  test("concurrent postings in both directions between two accounts neither deadlock nor lose an update", async () => {
    const a = await usdAccount();
    const b = await usdAccount();
    await server.client.post(`/sandbox/internal-accounts/${a}/fund`, { amount: 10_000 });
    await server.client.post(`/sandbox/internal-accounts/${b}/fund`, { amount: 10_000 });
    const move = (from: string, to: string, amount: number) =>
      server.db.transaction((tx) =>
        postBalanceChanges(tx, {
          platformId: server.platform.platformId,
          now: new Date(),
          postings: [
            { accountId: from, amount: -amount, transactionId: "Transaction:move" },
            { accountId: to, amount, transactionId: "Transaction:move" },
          ],
        }),
      );
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? move(a, b, 7) : move(b, a, 3))));
    const [ra, rb] = await Promise.all(
      [a, b].map((id) => server.client.get<Account>(`/internal-accounts/${id}`)),
    );
    expect(ra?.body.totalBalance.amount).toBe(10_000 - 20 * 7 + 20 * 3);
    expect(rb?.body.totalBalance.amount).toBe(10_000 + 20 * 7 - 20 * 3);
    await invariantHolds();
  });

  test("a change dated before existing ones keeps every running balance exact", async () => {
    const accountId = await usdAccount();
    const now = Date.now();
    const post = (amount: number, at: number) =>
      server.db.transaction((tx) =>
        postBalanceChanges(tx, {
          platformId: server.platform.platformId,
          now: new Date(now),
          effectiveAt: new Date(at),
          settlementLagMs: 120_000,
          postings: [{ accountId, amount, transactionId: "Transaction:backdated" }],
          allowOverdraft: true,
        }),
      );
    await post(1000, now);
    await post(-300, now - 60_000);
    await post(50, now - 30_000);
    const rows = await server.db.query<{ amount: number; balance_after: number; count_after: number }>(
      "SELECT amount, balance_after, count_after FROM balance_changes WHERE account_id = $1 ORDER BY effective_at, id",
      [accountId],
    );
    expect(rows).toEqual([
      { amount: -300, balance_after: -300, count_after: 1 },
      { amount: 50, balance_after: -250, count_after: 2 },
      { amount: 1000, balance_after: 750, count_after: 3 },
    ]);
    await invariantHolds();
  });
});

describe("sandbox clock", () => {
  test("GET /sandbox/clock reads the platform's clock; advancing moves only this platform's time", async () => {
    const other = await server.newPlatform();
    const before = await server.client.get<{ now: string }>("/sandbox/clock", { auth: other });
    const to = "2030-01-31T23:59:00.000Z";
    const advanced = await server.client.post<{ now: string }>(
      "/sandbox/clock/advance",
      { to },
      { auth: other },
    );
    expect(advanced.status).toBe(200);
    expect(advanced.body.now).toBe(to);
    const after = await server.client.get<{ now: string }>("/sandbox/clock", { auth: other });
    expect(Date.parse(after.body.now)).toBeGreaterThanOrEqual(Date.parse(to));
    const mine = await server.client.get<{ now: string }>("/sandbox/clock");
    expect(Date.parse(mine.body.now)).toBeLessThan(Date.parse(to));
    expect(Date.parse(before.body.now)).toBeLessThan(Date.parse(to));
  });

  test("timestamps the service assigns for the platform read its clock", async () => {
    const other = await server.newPlatform();
    await server.client.post("/sandbox/clock/advance", { to: "2031-06-01T12:00:00.000Z" }, { auth: other });
    const customer = await server.client.post<{ createdAt: string }>(
      "/customers",
      { customerType: "INDIVIDUAL" },
      { auth: other },
    );
    expect(customer.body.createdAt.startsWith("2031-06-01T12:0")).toBe(true);
  });

  test("the clock never moves back: an earlier `to` -> 400 INVALID_INPUT on to", async () => {
    const other = await server.newPlatform();
    await server.client.post("/sandbox/clock/advance", { to: "2032-01-01T00:00:00Z" }, { auth: other });
    const res = await server.client.post<{ details: { errors: { field: string }[] } }>(
      "/sandbox/clock/advance",
      { to: "2031-12-31T00:00:00Z" },
      { auth: other },
    );
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0]?.field).toBe("to");
  });
});

describe("GET /transactions", () => {
  test("status combined with type=CARD -> 400 INVALID_INPUT on status", async () => {
    const res = await server.client.get<{ details: { errors: { field: string }[] } }>(
      "/transactions?type=CARD&status=COMPLETED",
    );
    expect(res.status).toBe(400);
    expect(res.body.details.errors.map((e) => e.field)).toEqual(["status"]);
  });

  test("an unknown, malformed or foreign transaction id -> 404 TRANSACTION_NOT_FOUND", async () => {
    const other = await server.newPlatform();
    const accountId = await usdAccount();
    await server.client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 1 });
    const txs = await server.client.get<{ data: { id: string }[] }>(
      `/transactions?accountIdentifier=${accountId}`,
    );
    for (const [id, auth] of [
      ["Transaction:nope", undefined],
      [txs.body.data[0]?.id, other],
    ] as const) {
      const res = await server.client.get(`/transactions/${id}`, auth ? { auth } : {});
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "TRANSACTION_NOT_FOUND" });
    }
  });
});
