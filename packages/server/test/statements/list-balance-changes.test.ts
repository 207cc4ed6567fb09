import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BalanceChangeWindow } from "../../src/statements/schemas.js";
import type { TestServer } from "../harness.js";
import {
  allPages,
  type ErrorBody,
  platformAt,
  postChange,
  setClock,
  startStatementServer,
  usd,
  usdAccount,
  windowPath,
} from "./helpers.js";

// Interface "List balance changes for a period" and conventions §3.1 (parameters, cursor, errors).
const NOW = "2026-12-15T12:00:00.000Z";
const TX = "Transaction:0190a000-0000-7000-8000-000000000111";

let server: TestServer;
beforeAll(async () => {
  server = await startStatementServer();
});
afterAll(() => server.close());

const change = (id: string, amount: number, effectiveAt: string, fee = 0) => ({
  id,
  amount: usd(amount),
  fee: usd(fee),
  transactionId: TX,
  effectiveAt,
});

describe("GET /internal-accounts/{id}/balance-changes", () => {
  test("window is half-open: a change at exactly to belongs to the next window", async () => {
    const { client, platformId } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const cut = new Date("2026-11-10T06:00:00.000Z");
    const before = await postChange(server, platformId, accountId, {
      amount: 100,
      effectiveAt: new Date(cut.getTime() - 1),
    });
    const atCut = await postChange(server, platformId, accountId, { amount: 40, effectiveAt: cut });
    const first = await client.get(windowPath(accountId, "2026-11-09T00:00:00-06:00", cut));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      data: [change(before.id, 100, "2026-11-10T05:59:59.999Z")],
      openingBalance: usd(0),
      closingBalance: usd(100),
      windowStart: "2026-11-09T00:00:00-06:00",
      windowEnd: "2026-11-10T00:00:00-06:00",
      hasMore: false,
      totalCount: 1,
      totalCountIsExact: true,
    });
    const next = await client.get(windowPath(accountId, cut, "2026-11-11T00:00:00-06:00"));
    expect(next.status).toBe(200);
    expect(next.body).toEqual({
      data: [change(atCut.id, 40, "2026-11-10T06:00:00.000Z")],
      openingBalance: usd(100),
      closingBalance: usd(140),
      windowStart: "2026-11-10T00:00:00-06:00",
      windowEnd: "2026-11-11T00:00:00-06:00",
      hasMore: false,
      totalCount: 1,
      totalCountIsExact: true,
    });
  });

  test("a monthly window is written from the first instant of the Chicago month to the next, with that zone's offset for each date", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    for (const [from, to, start, end] of [
      [
        "2026-10-01T05:00:00Z",
        "2026-11-01T05:00:00.000Z",
        "2026-10-01T00:00:00-05:00",
        "2026-11-01T00:00:00-05:00",
      ],
      [
        "2026-11-01T00:00:00-05:00",
        "2026-12-01T00:00:00-06:00",
        "2026-11-01T00:00:00-05:00",
        "2026-12-01T00:00:00-06:00",
      ],
      [
        "2026-11-10T12:00:00.250Z",
        "2026-11-10T14:00:00+01:00",
        "2026-11-10T06:00:00.250-06:00",
        "2026-11-10T07:00:00-06:00",
      ],
    ] as const) {
      const res = await client.get<BalanceChangeWindow>(windowPath(accountId, from, to));
      expect(res.status).toBe(200);
      expect([res.body.windowStart, res.body.windowEnd]).toEqual([start, end]);
    }
  });

  test("the opening and closing balances are the same on every page", async () => {
    const { client, platformId } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const at = (iso: string) => new Date(iso);
    await postChange(server, platformId, accountId, {
      amount: 1_000,
      effectiveAt: at("2026-11-30T12:00:00Z"),
    });
    const ids: string[] = [];
    for (const [i, amount] of [-100, 250, -75, 5, 20].entries()) {
      const row = await postChange(server, platformId, accountId, {
        amount,
        effectiveAt: at(`2026-12-0${i + 1}T12:00:00Z`),
      });
      ids.push(row.id);
    }
    await postChange(server, platformId, accountId, { amount: 7, effectiveAt: at("2026-12-10T12:00:00Z") });
    const pages = await allPages(
      client,
      accountId,
      "2026-12-01T00:00:00-06:00",
      "2026-12-06T00:00:00-06:00",
      2,
    );
    const common = {
      openingBalance: usd(1_000),
      closingBalance: usd(1_100),
      windowStart: "2026-12-01T00:00:00-06:00",
      windowEnd: "2026-12-06T00:00:00-06:00",
      totalCount: 5,
      totalCountIsExact: true,
    };
    expect(pages).toEqual([
      {
        ...common,
        data: [
          change(ids[0] ?? "", -100, "2026-12-01T12:00:00.000Z"),
          change(ids[1] ?? "", 250, "2026-12-02T12:00:00.000Z"),
        ],
        hasMore: true,
        nextCursor: ids[1],
      },
      {
        ...common,
        data: [
          change(ids[2] ?? "", -75, "2026-12-03T12:00:00.000Z"),
          change(ids[3] ?? "", 5, "2026-12-04T12:00:00.000Z"),
        ],
        hasMore: true,
        nextCursor: ids[3],
      },
      { ...common, data: [change(ids[4] ?? "", 20, "2026-12-05T12:00:00.000Z")], hasMore: false },
    ]);
  });

  test("a window whose card settlement has not closed -> 409 NOT_YET_AVAILABLE with Retry-After", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const cases = [
      ["2026-12-15T11:59:30.000Z", "30", "2026-12-15T05:59:30-06:00", "2026-12-15T12:00:30.000Z", 30],
      ["2026-12-15T12:00:00.000Z", "60", "2026-12-15T06:00:00-06:00", "2026-12-15T12:01:00.000Z", 60],
      ["2026-12-15T11:59:00.001Z", "1", "2026-12-15T05:59:00.001-06:00", "2026-12-15T12:00:00.001Z", 1],
    ] as const;
    for (const [to, retryAfter, end, closes, seconds] of cases) {
      const res = await client.get<ErrorBody>(windowPath(accountId, "2026-12-01T00:00:00-06:00", to));
      expect(res.status).toBe(409);
      expect(res.headers.get("retry-after")).toBe(retryAfter);
      expect(res.body).toEqual({
        code: "NOT_YET_AVAILABLE",
        reason: `Card settlement for the window end ${end} has not closed; it closes at ${closes}, in ${seconds} s.`,
      });
    }
  });

  test("a window ending exactly the settlement lag before now is available", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const res = await client.get(
      windowPath(accountId, "2026-12-01T00:00:00-06:00", "2026-12-15T11:59:00.000Z"),
    );
    expect(res.status).toBe(200);
  });

  test("a window becomes available once the platform clock passes its end plus the settlement lag", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const path = windowPath(accountId, "2026-12-01T00:00:00-06:00", "2026-12-15T11:59:30.000Z");
    expect((await client.get(path)).status).toBe(409);
    await setClock(client, "2026-12-15T12:00:30.000Z");
    expect((await client.get(path)).status).toBe(200);
  });

  test("consecutive pages are obtained by passing the returned cursor until hasMore is false", async () => {
    const { client, platformId } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    for (let i = 0; i < 7; i++) {
      await postChange(server, platformId, accountId, {
        amount: 10 * (i + 1),
        effectiveAt: new Date(Date.parse("2026-12-02T00:00:00Z") + i * 3_600_000),
      });
    }
    const whole = await allPages(client, accountId, "2026-12-01T00:00:00Z", "2026-12-03T00:00:00Z", 200);
    expect(whole).toHaveLength(1);
    const paged = await allPages(client, accountId, "2026-12-01T00:00:00Z", "2026-12-03T00:00:00Z", 3);
    expect(paged.map((p) => p.data.length)).toEqual([3, 3, 1]);
    expect(paged.flatMap((p) => p.data)).toEqual(whole[0]?.data);
    expect(paged.map((p) => p.nextCursor)).toEqual([paged[0]?.data[2]?.id, paged[1]?.data[2]?.id, undefined]);
  });

  test("the next page starts strictly after the cursor row's (effectiveAt, id): ties on effectiveAt go by id", async () => {
    const { client, platformId } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const at = new Date("2026-12-02T00:00:00Z");
    const ids: string[] = [];
    for (const amount of [1, 2, 3, 4])
      ids.push((await postChange(server, platformId, accountId, { amount, effectiveAt: at })).id);
    const pages = await allPages(client, accountId, "2026-12-01T00:00:00Z", "2026-12-03T00:00:00Z", 1);
    expect(pages.flatMap((p) => p.data.map((c) => c.id))).toEqual([...ids].sort());
  });
});
