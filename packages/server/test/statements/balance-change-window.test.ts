import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BalanceChangeWindow } from "../../src/statements/schemas.js";
import type { TestServer } from "../harness.js";
import {
  allPages,
  platformAt,
  postChange,
  startStatementServer,
  usd,
  usdAccount,
  windowPath,
} from "./helpers.js";

// Interface "Balance change window" and conventions §3.1 (response fields, BalanceChange, totalCount).
const NOW = "2026-12-15T12:00:00.000Z";

let server: TestServer;
beforeAll(async () => {
  server = await startStatementServer();
});
afterAll(() => server.close());

const sum = (window: BalanceChangeWindow[]) =>
  window.flatMap((p) => p.data).reduce((total, c) => total + c.amount.amount, 0);

describe("the balance change window", () => {
  test("each change carries id, amount, fee, transactionId and effectiveAt; fee is 0 when there is no fee", async () => {
    const { client } = await platformAt(server, "2026-12-01T10:00:00.000Z");
    const accountId = await usdAccount(client);
    const funded = await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 12_345 });
    expect(funded.status).toBe(200);
    const txs = await client.get<{ data: { id: string }[] }>(`/transactions?accountIdentifier=${accountId}`);
    const [row] = await server.db.query<{ id: string }>(
      "SELECT id FROM balance_changes WHERE account_id = $1",
      [accountId],
    );
    await client.post("/sandbox/clock/advance", { to: NOW });
    const res = await client.get(
      windowPath(accountId, "2026-12-01T00:00:00-06:00", "2026-12-02T00:00:00-06:00"),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        {
          id: row?.id,
          amount: usd(12_345),
          fee: usd(0),
          transactionId: txs.body.data[0]?.id,
          effectiveAt: "2026-12-01T10:00:00.000Z",
        },
      ],
      openingBalance: usd(0),
      closingBalance: usd(12_345),
      windowStart: "2026-12-01T00:00:00-06:00",
      windowEnd: "2026-12-02T00:00:00-06:00",
      hasMore: false,
      totalCount: 1,
      totalCountIsExact: true,
    });
    expect(row?.id).toMatch(/^BalanceChange:[0-9a-f-]{36}$/);
  });

  test("a fee is inside amount: openingBalance + sum(amount) == closingBalance, never + sum(fee)", async () => {
    const { client, platformId } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const at = (iso: string) => new Date(iso);
    await postChange(server, platformId, accountId, {
      amount: 10_000,
      effectiveAt: at("2026-12-02T10:00:00Z"),
    });
    const send = await postChange(server, platformId, accountId, {
      amount: -1_050,
      fee: -50,
      effectiveAt: at("2026-12-03T10:00:00Z"),
    });
    const withdrawalFee = await postChange(server, platformId, accountId, {
      amount: -25,
      fee: -25,
      effectiveAt: at("2026-12-04T10:00:00Z"),
    });
    const pages = await allPages(client, accountId, "2026-12-01T00:00:00Z", "2026-12-05T00:00:00Z", 200);
    const [page] = pages;
    expect(page?.data.slice(1).map((c) => [c.id, c.amount.amount, c.fee.amount])).toEqual([
      [send.id, -1_050, -50],
      [withdrawalFee.id, -25, -25],
    ]);
    expect(page?.closingBalance.amount).toBe((page?.openingBalance.amount ?? 0) + sum(pages));
    expect(page?.closingBalance).toEqual(usd(8_925));
  });

  test("data is ordered by effectiveAt, then id, whatever order the changes were recorded in", async () => {
    const { client, platformId } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    // Recorded out of order, each backdated within the settlement lag of when it is recorded.
    const instants = [
      "2026-12-03T00:00:30.000Z",
      "2026-12-03T00:00:10.000Z",
      "2026-12-03T00:00:30.000Z",
      "2026-12-03T00:00:20.000Z",
    ];
    const posted = [];
    for (const [i, iso] of instants.entries()) {
      posted.push(
        await postChange(server, platformId, accountId, {
          amount: i + 1,
          effectiveAt: new Date(iso),
          now: new Date("2026-12-03T00:00:40Z"),
        }),
      );
    }
    const [page] = await allPages(client, accountId, "2026-12-01T00:00:00Z", "2026-12-04T00:00:00Z", 200);
    const expected = posted
      .map((row) => ({ id: row.id, effectiveAt: row.effective_at.toISOString() }))
      .sort((a, b) =>
        a.effectiveAt === b.effectiveAt ? (a.id < b.id ? -1 : 1) : a.effectiveAt < b.effectiveAt ? -1 : 1,
      );
    expect(page?.data.map((c) => ({ id: c.id, effectiveAt: c.effectiveAt }))).toEqual(expected);
  });

  test("the balances are the account's totalBalance at windowStart and at windowEnd", async () => {
    const { client } = await platformAt(server, "2026-12-01T10:00:00.000Z");
    const accountId = await usdAccount(client);
    await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 700 });
    await client.post("/sandbox/clock/advance", { to: "2026-12-05T10:00:00.000Z" });
    await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 300 });
    await client.post("/sandbox/clock/advance", { to: NOW });
    const account = await client.get<{ totalBalance: unknown }>(`/internal-accounts/${accountId}`);
    const res = await client.get<BalanceChangeWindow>(
      windowPath(accountId, "2026-12-03T00:00:00-06:00", "2026-12-10T00:00:00-06:00"),
    );
    expect(res.body.openingBalance).toEqual(usd(700));
    expect(res.body.closingBalance).toEqual(account.body.totalBalance);
  });

  test("an empty window has equal opening and closing balances, no data and totalCount 0", async () => {
    const { client, platformId } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    await postChange(server, platformId, accountId, {
      amount: 99,
      effectiveAt: new Date("2026-12-01T00:00:00Z"),
    });
    const res = await client.get(windowPath(accountId, "2026-12-05T00:00:00Z", "2026-12-06T00:00:00Z"));
    expect(res.body).toEqual({
      data: [],
      openingBalance: usd(99),
      closingBalance: usd(99),
      windowStart: "2026-12-04T18:00:00-06:00",
      windowEnd: "2026-12-05T18:00:00-06:00",
      hasMore: false,
      totalCount: 0,
      totalCountIsExact: true,
    });
  });

  test("totalCount is exact up to 10,000 and capped at 10,000 beyond, with totalCountIsExact false exactly when capped", async () => {
    const { client, platformId } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    // 10,001 changes one second apart from 2026-12-02T00:00:01Z, written in one statement (fixture only:
    // the running balance and count are set as postBalanceChanges would, one unit per change).
    await server.db.query(
      `INSERT INTO balance_changes (id, platform_id, account_id, transaction_id, amount, fee, effective_at, recorded_at,
         balance_after, count_after)
       SELECT 'BalanceChange:' || gen_random_uuid(), $1, $2, 'Transaction:0190a000-0000-7000-8000-000000000222', 1, 0,
              $3::timestamptz + g * interval '1 second', $3::timestamptz + g * interval '1 second', g, g
       FROM generate_series(1, 10001) g`,
      [platformId, accountId, "2026-12-02T00:00:00Z"],
    );
    await server.db.query("UPDATE internal_accounts SET total_balance = 10001 WHERE id = $1", [accountId]);
    const lastAt = new Date(Date.parse("2026-12-02T00:00:00Z") + 10_001_000);
    const exact = await client.get<BalanceChangeWindow>(
      windowPath(accountId, "2026-12-02T00:00:00Z", lastAt, { limit: 1 }),
    );
    expect([exact.body.totalCount, exact.body.totalCountIsExact]).toEqual([10_000, true]);
    const capped = await client.get<BalanceChangeWindow>(
      windowPath(accountId, "2026-12-02T00:00:00Z", new Date(lastAt.getTime() + 1), { limit: 1 }),
    );
    expect([capped.body.totalCount, capped.body.totalCountIsExact]).toEqual([10_000, false]);
    expect([capped.body.openingBalance, capped.body.closingBalance]).toEqual([usd(0), usd(10_001)]);
    const tail = await client.get<BalanceChangeWindow>(
      windowPath(accountId, new Date(lastAt.getTime() - 2_000), new Date(lastAt.getTime() + 1), { limit: 1 }),
    );
    expect(tail.body).toMatchObject({
      openingBalance: usd(9_998),
      closingBalance: usd(10_001),
      totalCount: 3,
    });
  });

  test("nextCursor is present only when hasMore is true, and is the page's last BalanceChange id", async () => {
    const { client, platformId } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    for (const hour of [1, 2]) {
      await postChange(server, platformId, accountId, {
        amount: hour,
        effectiveAt: new Date(`2026-12-02T0${hour}:00:00Z`),
      });
    }
    const pages = await allPages(client, accountId, "2026-12-02T00:00:00Z", "2026-12-03T00:00:00Z", 1);
    expect(pages.map((p) => [p.hasMore, p.nextCursor])).toEqual([
      [true, pages[0]?.data[0]?.id],
      [false, undefined],
    ]);
    expect("nextCursor" in (pages[1] ?? {})).toBe(false);
  });
});
