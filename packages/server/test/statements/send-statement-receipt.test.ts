import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestServer } from "../harness.js";
import {
  type ErrorBody,
  nonStatementAccounts,
  platformAt,
  setClock,
  startStatementServer,
  usdAccount,
  windowPath,
} from "./helpers.js";

// Interface "Send a statement receipt" and conventions §3.2 (status codes, periodStart form, errors).
const NOW = "2026-12-15T12:00:00.000Z";
const OCTOBER = { periodStart: "2026-10-01T00:00:00-05:00", periodEnd: "2026-11-01T00:00:00-05:00" };

let server: TestServer;
beforeAll(async () => {
  server = await startStatementServer();
});
afterAll(() => server.close());

const confirmPath = (accountId: string) => `/internal-accounts/${accountId}/statement-confirmations`;

describe("POST /internal-accounts/{id}/statement-confirmations", () => {
  test("the first receipt -> 201 with the delivery record", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const res = await client.post(confirmPath(accountId), { periodStart: OCTOBER.periodStart });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ accountId, ...OCTOBER, confirmedAt: NOW });
  });

  test("sending it again is harmless: 200 with the unchanged record, the first confirmedAt kept", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const first = await client.post(confirmPath(accountId), { periodStart: OCTOBER.periodStart });
    await setClock(client, "2026-12-20T00:00:00.000Z");
    const again = await client.post(confirmPath(accountId), { periodStart: OCTOBER.periodStart });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body).toEqual({ accountId, ...OCTOBER, confirmedAt: NOW });
  });

  test("concurrent duplicate receipts produce exactly one record and one 201", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        client.post(confirmPath(accountId), { periodStart: OCTOBER.periodStart }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    for (const r of results) expect(r.body).toEqual({ accountId, ...OCTOBER, confirmedAt: NOW });
    const rows = await server.db.query("SELECT 1 FROM statement_deliveries WHERE account_id = $1", [
      accountId,
    ]);
    expect(rows).toHaveLength(1);
  });

  test("a receipt after the statement was fetched keeps fetchedAt and adds confirmedAt", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    expect((await client.get(windowPath(accountId, OCTOBER.periodStart, OCTOBER.periodEnd))).status).toBe(
      200,
    );
    await setClock(client, "2026-12-16T09:30:00.000Z");
    const res = await client.post(confirmPath(accountId), { periodStart: OCTOBER.periodStart });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      accountId,
      ...OCTOBER,
      fetchedAt: NOW,
      confirmedAt: "2026-12-16T09:30:00.000Z",
    });
  });

  test.each([
    ["2026-03-01T00:00:00-06:00", "2026-04-01T00:00:00-05:00"],
    ["2026-11-01T00:00:00-05:00", "2026-12-01T00:00:00-06:00"],
    ["2026-12-01T00:00:00-06:00", "2027-01-01T00:00:00-06:00"],
    ["2026-10-01T00:00:00.000-05:00", "2026-11-01T00:00:00-05:00"],
  ])(
    "periodStart %s (a Chicago month start with Chicago's offset) is accepted; periodEnd is %s",
    async (periodStart, periodEnd) => {
      const { client } = await platformAt(server, "2027-01-10T00:00:00.000Z");
      const accountId = await usdAccount(client);
      const res = await client.post<{ periodStart: string; periodEnd: string }>(confirmPath(accountId), {
        periodStart,
      });
      expect(res.status).toBe(201);
      expect([res.body.periodStart, res.body.periodEnd]).toEqual([
        periodStart.replace(".000", ""),
        periodEnd,
      ]);
    },
  );

  const notMonthStart = (start: string) =>
    `is not the first instant of an America/Chicago month; that month starts at ${start}`;
  const wrongOffset =
    "must be written with the America/Chicago offset -05:00 of that instant: 2026-10-01T00:00:00-05:00";
  test.each([
    ["the month start written in UTC", "2026-10-01T05:00:00Z", wrongOffset],
    ["the month start under another offset", "2026-10-01T01:00:00-04:00", wrongOffset],
    [
      "Chicago midnight under the other season's offset",
      "2026-10-01T00:00:00-06:00",
      notMonthStart("2026-10-01T00:00:00-05:00"),
    ],
    ["a mid-month instant", "2026-10-15T00:00:00-05:00", notMonthStart("2026-10-01T00:00:00-05:00")],
    [
      "December 1 with the summer offset",
      "2026-12-01T00:00:00-05:00",
      notMonthStart("2026-11-01T00:00:00-05:00"),
    ],
    [
      "one millisecond into the month",
      "2026-10-01T00:00:00.001-05:00",
      notMonthStart("2026-10-01T00:00:00-05:00"),
    ],
  ])("%s -> 400 INVALID_INPUT on periodStart with the reason", async (_name, periodStart, message) => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const res = await client.post(confirmPath(accountId), { periodStart });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INVALID_INPUT",
      reason: `Invalid periodStart: ${message}`,
      details: { errors: [{ field: "periodStart", message }] },
    });
  });

  test.each([
    [
      "a date without time",
      { periodStart: "2026-10-01" },
      { field: "periodStart", constraint: { format: "date-time" }, message: "must be a valid date-time" },
    ],
    [
      "a local time without offset",
      { periodStart: "2026-10-01T00:00:00" },
      { field: "periodStart", constraint: { format: "date-time" }, message: "must be a valid date-time" },
    ],
    ["no periodStart", {}, { field: "periodStart", message: "is required" }],
    ["an unknown field", { ...OCTOBER }, { field: "periodEnd", message: "is not a recognized field" }],
  ])("%s -> 400 INVALID_INPUT naming the field", async (_name, body, error) => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const res = await client.post(confirmPath(accountId), body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INVALID_INPUT",
      reason: `Invalid ${error.field}: ${error.message}`,
      details: { errors: [error] },
    });
  });

  test("a period whose window is not yet available -> 409 NOT_YET_AVAILABLE with Retry-After", async () => {
    const { client } = await platformAt(server, "2026-12-01T06:00:30.000Z");
    const accountId = await usdAccount(client);
    for (const [periodStart, retryAfter, end, closes] of [
      ["2026-11-01T00:00:00-05:00", "30", "2026-12-01T00:00:00-06:00", "2026-12-01T06:01:00.000Z"],
      ["2026-12-01T00:00:00-06:00", "2678430", "2027-01-01T00:00:00-06:00", "2027-01-01T06:01:00.000Z"],
    ]) {
      const res = await client.post<ErrorBody>(confirmPath(accountId), { periodStart });
      expect(res.status).toBe(409);
      expect(res.headers.get("retry-after")).toBe(retryAfter);
      expect(res.body).toEqual({
        code: "NOT_YET_AVAILABLE",
        reason: `Card settlement for the period end ${end} has not closed; it closes at ${closes}, in ${retryAfter} s.`,
      });
    }
    expect((await client.get(`/internal-accounts/${accountId}/statement-deliveries`)).body).toMatchObject({
      totalCount: 0,
    });
  });

  test("a non-statement account -> 409 CONFLICT", async () => {
    const { client } = await platformAt(server, NOW);
    for (const [kind, accountId] of await nonStatementAccounts(server, client)) {
      const res = await client.post(confirmPath(accountId), { periodStart: OCTOBER.periodStart });
      expect([kind, res.status, res.body]).toEqual([
        kind,
        409,
        {
          code: "CONFLICT",
          reason: `Account ${accountId} has no statements: only customer-owned USD INTERNAL_FIAT accounts that are neither rule-based nor bulk-settlement do.`,
        },
      ]);
    }
  });

  test("an unknown, malformed or foreign account -> 404 ACCOUNT_NOT_FOUND", async () => {
    const { client } = await platformAt(server, NOW);
    const other = await platformAt(server, NOW);
    const foreign = await usdAccount(other.client);
    for (const id of [
      "InternalAccount:0190a000-0000-7000-8000-0000000000bb",
      "InternalAccount:nope",
      foreign,
    ]) {
      const res = await client.post(confirmPath(id), { periodStart: OCTOBER.periodStart });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "ACCOUNT_NOT_FOUND", reason: `No internal account ${id}.` });
    }
  });

  test("check order: 400 periodStart, then 404 account, then 409 CONFLICT before 409 NOT_YET_AVAILABLE", async () => {
    const { client } = await platformAt(server, NOW);
    const unknown = "InternalAccount:0190a000-0000-7000-8000-0000000000cc";
    const december = "2026-12-01T00:00:00-06:00";
    expect(
      (await client.post(confirmPath(unknown), { periodStart: "2026-12-02T00:00:00-06:00" })).status,
    ).toBe(400);
    expect((await client.post(confirmPath(unknown), { periodStart: december })).status).toBe(404);
    const [, platformAccount] = (await nonStatementAccounts(server, client))[0] ?? [];
    const res = await client.post<ErrorBody>(confirmPath(platformAccount ?? ""), { periodStart: december });
    expect([res.status, res.body.code]).toEqual([409, "CONFLICT"]);
  });

  test("a receipt needs the MANAGE permission", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const token = await client.post<{ clientId: string; clientSecret: string }>("/tokens", {
      name: "viewer",
      permissions: ["VIEW"],
    });
    const res = await client.post(
      confirmPath(accountId),
      { periodStart: OCTOBER.periodStart },
      { auth: token.body },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "FORBIDDEN", reason: "This operation needs the MANAGE permission." });
  });
});
