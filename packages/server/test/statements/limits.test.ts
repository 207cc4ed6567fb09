import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BalanceChangeWindow } from "../../src/statements/schemas.js";
import type { TestServer } from "../harness.js";
import { platformAt, postChange, startStatementServer, usdAccount, windowPath } from "./helpers.js";

// Interface "Limits" rows for balance changes: `limit` 1 to 200 (default 50, conventions §3.1) and `to`
// not in the future. The exact-month statement window is covered in periodic-statement-rules.test.ts.
const NOW = "2026-12-15T12:00:00.000Z";
const FROM = "2026-12-01T00:00:00Z";
const TO = "2026-12-02T00:00:00Z";

let server: TestServer;
let client: TestServer["client"];
let accountId: string;
beforeAll(async () => {
  server = await startStatementServer();
  const platform = await platformAt(server, NOW);
  client = platform.client;
  accountId = await usdAccount(client);
  for (let i = 0; i < 201; i++) {
    await postChange(server, platform.platformId, accountId, {
      amount: 1,
      effectiveAt: new Date(Date.parse(FROM) + i * 60_000),
    });
  }
});
afterAll(() => server.close());

describe("limits of the balance-changes feed", () => {
  test.each([
    ["0", "must be >= 1"],
    ["201", "must be <= 200"],
    ["-1", "must be >= 1"],
    ["1.5", "must be integer"],
    ["ten", "must be integer"],
  ])("limit=%s is outside 1 to 200 -> 400 INVALID_INPUT on limit, never clamped", async (limit, message) => {
    const res = await client.get(windowPath(accountId, FROM, TO, { limit }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INVALID_INPUT",
      reason: `Invalid limit: ${message}`,
      details: { errors: [{ field: "limit", message }] },
    });
  });

  test.each([
    [1, 1],
    [200, 200],
  ])("limit=%i is accepted and returns %i changes", async (limit, count) => {
    const res = await client.get<BalanceChangeWindow>(windowPath(accountId, FROM, TO, { limit }));
    expect(res.status).toBe(200);
    expect([res.body.data.length, res.body.hasMore, res.body.totalCount]).toEqual([count, true, 201]);
  });

  test("limit defaults to 50", async () => {
    const res = await client.get<BalanceChangeWindow>(windowPath(accountId, FROM, TO));
    expect([res.body.data.length, res.body.hasMore, res.body.nextCursor]).toEqual([
      50,
      true,
      res.body.data[49]?.id,
    ]);
  });

  test("to in the future (platform clock) -> 400 INVALID_INPUT on to", async () => {
    for (const to of ["2026-12-15T12:00:00.001Z", "2027-01-01T00:00:00-06:00"]) {
      const res = await client.get(windowPath(accountId, FROM, to));
      expect(res.status).toBe(400);
      const message = `must not be in the future; the platform's time is ${NOW}`;
      expect(res.body).toEqual({
        code: "INVALID_INPUT",
        reason: `Invalid to: ${message}`,
        details: { errors: [{ field: "to", message }] },
      });
    }
  });

  test("to equal to the platform's now is not in the future (it is 409 until settlement closes)", async () => {
    const res = await client.get(windowPath(accountId, FROM, NOW));
    expect(res.status).toBe(409);
  });
});
