import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DeliveryRecord } from "../../src/statements/schemas.js";
import type { TestServer } from "../harness.js";
import { deliveries, platformAt, setClock, startStatementServer, usdAccount, windowPath } from "./helpers.js";

// Interface "Statement confirmation" (the delivery record) and conventions §3.2 (the records list).
const NOW = "2026-12-15T12:00:00.000Z";
const months = [
  ["2026-06-01T00:00:00-05:00", "2026-07-01T00:00:00-05:00"],
  ["2026-07-01T00:00:00-05:00", "2026-08-01T00:00:00-05:00"],
  ["2026-08-01T00:00:00-05:00", "2026-09-01T00:00:00-05:00"],
  ["2026-09-01T00:00:00-05:00", "2026-10-01T00:00:00-05:00"],
  ["2026-10-01T00:00:00-05:00", "2026-11-01T00:00:00-05:00"],
] as const;

let server: TestServer;
beforeAll(async () => {
  server = await startStatementServer();
});
afterAll(() => server.close());

const confirm = (client: TestServer["client"], accountId: string, periodStart: string) =>
  client.post(`/internal-accounts/${accountId}/statement-confirmations`, { periodStart });

describe("statement delivery records", () => {
  test("the service stores the receipt as the delivery record for that account and period", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const otherAccount = await usdAccount(client);
    await confirm(client, accountId, months[4][0]);
    expect((await deliveries(client, accountId)).body).toEqual({
      data: [{ accountId, periodStart: months[4][0], periodEnd: months[4][1], confirmedAt: NOW }],
      hasMore: false,
      totalCount: 1,
    });
    expect((await deliveries(client, otherAccount)).body).toEqual({
      data: [],
      hasMore: false,
      totalCount: 0,
    });
  });

  test("a record exists once its period is fetched or confirmed; confirmedAt is absent until confirmed", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    await client.get(windowPath(accountId, months[3][0], months[3][1]));
    await setClock(client, "2026-12-16T00:00:00.000Z");
    await confirm(client, accountId, months[4][0]);
    expect((await deliveries(client, accountId)).body.data).toEqual([
      {
        accountId,
        periodStart: months[4][0],
        periodEnd: months[4][1],
        confirmedAt: "2026-12-16T00:00:00.000Z",
      },
      { accountId, periodStart: months[3][0], periodEnd: months[3][1], fetchedAt: NOW },
    ]);
  });

  test("records are listed newest period first and paginated with a cursor; sortOrder=asc reverses", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    for (const [start] of months) await confirm(client, accountId, start);
    const starts = (records: DeliveryRecord[]) => records.map((r) => r.periodStart);
    const first = await deliveries(client, accountId, "?limit=2");
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 5 });
    expect(starts(first.body.data)).toEqual([months[4][0], months[3][0]]);
    const second = await deliveries(client, accountId, `?limit=2&cursor=${first.body.nextCursor}`);
    expect(starts(second.body.data)).toEqual([months[2][0], months[1][0]]);
    const third = await deliveries(client, accountId, `?limit=2&cursor=${second.body.nextCursor}`);
    expect(third.body).toEqual({
      data: [{ accountId, periodStart: months[0][0], periodEnd: months[0][1], confirmedAt: NOW }],
      hasMore: false,
      totalCount: 5,
    });
    const ascending = await deliveries(client, accountId, "?sortOrder=asc&limit=3");
    const rest = await deliveries(
      client,
      accountId,
      `?sortOrder=asc&limit=3&cursor=${ascending.body.nextCursor}`,
    );
    expect(starts([...ascending.body.data, ...rest.body.data])).toEqual(months.map(([start]) => start));
  });

  test("a malformed cursor, or one from another account's list or order -> 400 INVALID_INPUT on cursor", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const otherAccount = await usdAccount(client);
    for (const [start] of months.slice(0, 2)) {
      await confirm(client, accountId, start);
      await confirm(client, otherAccount, start);
    }
    const foreign = (await deliveries(client, otherAccount, "?limit=1")).body.nextCursor;
    const ascending = (await deliveries(client, accountId, "?limit=1&sortOrder=asc")).body.nextCursor;
    for (const cursor of ["abc", foreign, ascending]) {
      const res = await deliveries(client, accountId, `?limit=1&cursor=${cursor}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: "INVALID_INPUT",
        reason: "Invalid cursor: is not a cursor returned by this list",
        details: { errors: [{ field: "cursor", message: "is not a cursor returned by this list" }] },
      });
    }
  });

  test.each([["0"], ["101"], ["x"]])(
    "limit=%s (outside 1–100) -> 400 INVALID_INPUT on limit",
    async (limit) => {
      const { client } = await platformAt(server, NOW);
      const accountId = await usdAccount(client);
      const res = await deliveries(client, accountId, `?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(
        (res.body as unknown as { details: { errors: { field: string }[] } }).details.errors.map(
          (e) => e.field,
        ),
      ).toEqual(["limit"]);
    },
  );

  test("an unknown, malformed or foreign account -> 404 ACCOUNT_NOT_FOUND", async () => {
    const { client } = await platformAt(server, NOW);
    const other = await platformAt(server, NOW);
    const foreign = await usdAccount(other.client);
    for (const id of [
      "InternalAccount:0190a000-0000-7000-8000-0000000000bb",
      "InternalAccount:nope",
      foreign,
    ]) {
      const res = await deliveries(client, id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "ACCOUNT_NOT_FOUND", reason: `No internal account ${id}.` });
    }
  });
});
