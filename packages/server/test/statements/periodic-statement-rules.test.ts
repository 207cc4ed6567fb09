import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BalanceChangeWindow } from "../../src/statements/schemas.js";
import type { TestServer } from "../harness.js";
import {
  allPages,
  deliveries,
  nonStatementAccounts,
  platformAt,
  postChange,
  setClock,
  startStatementServer,
  usdAccount,
  windowPath,
} from "./helpers.js";

// Interface "Periodic statement rules" (Regulation E) and conventions §3.1 on recording fetches.
const NOW = "2026-12-15T12:00:00.000Z";
const OCTOBER = ["2026-10-01T00:00:00-05:00", "2026-11-01T00:00:00-05:00"] as const;
const NOVEMBER = ["2026-11-01T00:00:00-05:00", "2026-12-01T00:00:00-06:00"] as const;

let server: TestServer;
beforeAll(async () => {
  server = await startStatementServer();
});
afterAll(() => server.close());

describe("periodic statement rules", () => {
  test("a statement is recorded as fetched only when the window is exactly one Chicago calendar month", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const notMonths = [
      ["2026-10-01T00:00:00Z", "2026-11-01T00:00:00Z"],
      ["2026-09-01T00:00:00-05:00", "2026-11-01T00:00:00-05:00"],
      ["2026-10-01T00:00:00-05:00", "2026-10-31T00:00:00-05:00"],
      ["2026-10-01T00:00:00-05:00", "2026-11-01T00:00:00.001-05:00"],
    ];
    for (const [from, to] of notMonths) {
      expect((await client.get(windowPath(accountId, from ?? "", to ?? ""))).status).toBe(200);
    }
    expect((await deliveries(client, accountId)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    expect((await client.get(windowPath(accountId, ...OCTOBER))).status).toBe(200);
    // Compared as instants: the same month written in UTC counts too.
    expect(
      (await client.get(windowPath(accountId, "2026-11-01T05:00:00Z", "2026-12-01T06:00:00.000Z"))).status,
    ).toBe(200);
    expect((await deliveries(client, accountId)).body).toEqual({
      data: [
        { accountId, periodStart: NOVEMBER[0], periodEnd: NOVEMBER[1], fetchedAt: NOW },
        { accountId, periodStart: OCTOBER[0], periodEnd: OCTOBER[1], fetchedAt: NOW },
      ],
      hasMore: false,
      totalCount: 2,
    });
  });

  test("fetchedAt is set by the first successful response; later fetches and later pages leave it unchanged", async () => {
    const { client, platformId } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    for (const day of ["05", "06"]) {
      await postChange(server, platformId, accountId, {
        amount: 1,
        effectiveAt: new Date(`2026-10-${day}T12:00:00Z`),
      });
    }
    const first = await client.get<BalanceChangeWindow>(windowPath(accountId, ...OCTOBER, { limit: 1 }));
    await setClock(client, "2026-12-20T08:00:00.000Z");
    const cursor = first.body.nextCursor ?? "";
    expect((await client.get(windowPath(accountId, ...OCTOBER, { limit: 1, cursor }))).status).toBe(200);
    expect((await client.get(windowPath(accountId, ...OCTOBER))).status).toBe(200);
    expect((await deliveries(client, accountId)).body.data).toEqual([
      { accountId, periodStart: OCTOBER[0], periodEnd: OCTOBER[1], fetchedAt: NOW },
    ]);
  });

  test("a refused fetch records nothing", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const december = await client.get(
      windowPath(accountId, "2026-12-01T00:00:00-06:00", "2027-01-01T00:00:00-06:00"),
    );
    expect(december.status).toBe(400);
    await setClock(client, "2027-01-01T06:00:30.000Z");
    const unsettled = await client.get(
      windowPath(accountId, "2026-12-01T00:00:00-06:00", "2027-01-01T00:00:00-06:00"),
    );
    expect(unsettled.status).toBe(409);
    const badCursor = await client.get(windowPath(accountId, ...OCTOBER, { cursor: "BalanceChange:nope" }));
    expect(badCursor.status).toBe(400);
    expect((await deliveries(client, accountId)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  test("statements are for customers' own USD accounts: any account's changes can be read, but others record no fetch", async () => {
    const { client, platformId } = await platformAt(server, NOW);
    for (const [kind, accountId] of await nonStatementAccounts(server, client)) {
      await postChange(server, platformId, accountId, {
        amount: 5,
        effectiveAt: new Date("2026-10-10T00:00:00Z"),
      });
      const res = await client.get<BalanceChangeWindow>(windowPath(accountId, ...OCTOBER));
      expect([kind, res.status, res.body.totalCount]).toEqual([kind, 200, 1]);
      expect([kind, (await deliveries(client, accountId)).body.totalCount]).toEqual([kind, 0]);
    }
  });

  test("the client's check holds over all pages: openingBalance + sum(data[].amount) == closingBalance", async () => {
    const { client, platformId } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    // Both November edges, to the millisecond, and the repeated 01:30 of the fall-back night.
    const changes = [
      ["2026-11-01T04:59:59.999Z", 5_000],
      ["2026-11-01T05:00:00.000Z", -1_250],
      ["2026-11-01T06:30:00.000Z", 730],
      ["2026-11-01T07:30:00.000Z", -99],
      ["2026-11-15T12:00:00.000Z", 12],
      ["2026-11-20T12:00:00.000Z", -4_000],
      ["2026-12-01T05:59:59.999Z", 1],
      ["2026-12-01T06:00:00.000Z", 64],
    ] as const;
    for (const [at, amount] of changes) {
      await postChange(server, platformId, accountId, { amount, effectiveAt: new Date(at) });
    }
    const pages = await allPages(client, accountId, ...NOVEMBER, 3);
    const sum = pages.flatMap((p) => p.data).reduce((total, c) => total + c.amount.amount, 0);
    for (const page of pages) expect(page.openingBalance.amount + sum).toBe(page.closingBalance.amount);
    expect([pages[0]?.openingBalance.amount, sum, pages[0]?.totalCount]).toEqual([5_000, -4_606, 6]);
  });

  test("March and November statement windows start and end with different offsets", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    for (const [from, to] of [["2026-03-01T00:00:00-06:00", "2026-04-01T00:00:00-05:00"], NOVEMBER]) {
      const res = await client.get<BalanceChangeWindow>(windowPath(accountId, from ?? "", to ?? ""));
      expect([res.body.windowStart, res.body.windowEnd]).toEqual([from, to]);
    }
    const records = (await deliveries(client, accountId)).body.data;
    expect(records.map((r) => [r.periodStart, r.periodEnd])).toEqual([
      [NOVEMBER[0], NOVEMBER[1]],
      ["2026-03-01T00:00:00-06:00", "2026-04-01T00:00:00-05:00"],
    ]);
  });

  test("statement lines read their detail from the transaction each change names", async () => {
    const { client } = await platformAt(server, "2026-11-02T15:00:00.000Z");
    const accountId = await usdAccount(client);
    await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 2_500 });
    await setClock(client, NOW);
    const [page] = await allPages(client, accountId, ...NOVEMBER, 50);
    const transactionId = page?.data[0]?.transactionId ?? "";
    const tx = await client.get<{ id: string; type: string }>(`/transactions/${transactionId}`);
    expect(tx.status).toBe(200);
    expect([tx.body.id, tx.body.type]).toEqual([transactionId, "INCOMING"]);
  });
});
