import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestServer } from "../harness.js";
import { platformAt, postChange, startStatementServer, usdAccount, windowPath } from "./helpers.js";

// Conventions §3.1 errors table for GET /internal-accounts/{id}/balance-changes: bad windows, bad
// cursors, unknown accounts, and the check order (conventions §1.7).
const NOW = "2026-12-15T12:00:00.000Z";

let server: TestServer;
beforeAll(async () => {
  server = await startStatementServer();
});
afterAll(() => server.close());

const fieldError = (field: string, message: string, constraint?: Record<string, unknown>) => ({
  code: "INVALID_INPUT",
  reason: `Invalid ${field}: ${message}`,
  details: { errors: [constraint ? { field, constraint, message } : { field, message }] },
});

describe("GET /internal-accounts/{id}/balance-changes errors", () => {
  test.each([
    ["a malformed cursor", () => "abc", "is not a balance change of this account returned by this feed"],
    [
      "an unknown BalanceChange id",
      () => "BalanceChange:0190a000-0000-7000-8000-0000000000aa",
      "is not a balance change of this account returned by this feed",
    ],
    [
      "another account's change",
      (ctx: CursorCase) => ctx.foreign,
      "is not a balance change of this account returned by this feed",
    ],
    [
      "a change before from",
      (ctx: CursorCase) => ctx.before,
      "names a balance change outside the window [from, to)",
    ],
    [
      "a change at exactly to",
      (ctx: CursorCase) => ctx.atTo,
      "names a balance change outside the window [from, to)",
    ],
  ])("%s as cursor -> 400 INVALID_INPUT on cursor, never a restart", async (_name, cursorOf, message) => {
    const ctx = await cursorCase();
    const res = await ctx.client.get(
      windowPath(ctx.accountId, "2026-12-02T00:00:00Z", "2026-12-03T00:00:00Z", { cursor: cursorOf(ctx) }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fieldError("cursor", message));
  });

  test("an empty cursor -> 400 INVALID_INPUT on cursor", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const res = await client.get(
      windowPath(accountId, "2026-12-02T00:00:00Z", "2026-12-03T00:00:00Z", { cursor: "" }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fieldError("cursor", "must NOT have fewer than 1 characters", { minLength: 1 }));
  });

  test.each([
    ["from missing", { to: "2026-12-01T00:00:00Z" }, fieldError("from", "is required")],
    ["to missing", { from: "2026-12-01T00:00:00Z" }, fieldError("to", "is required")],
    [
      "from malformed",
      { from: "yesterday", to: "2026-12-01T00:00:00Z" },
      fieldError("from", "must be a valid date-time", { format: "date-time" }),
    ],
    [
      "to without an offset",
      { from: "2026-11-01T00:00:00Z", to: "2026-12-01T00:00:00" },
      fieldError("to", "must be a valid date-time", { format: "date-time" }),
    ],
    [
      "from with 4 fractional digits",
      { from: "2026-11-01T00:00:00.0001Z", to: "2026-12-01T00:00:00Z" },
      fieldError("from", "must be a valid date-time", { format: "date-time" }),
    ],
    [
      "from after to",
      { from: "2026-12-02T00:00:00Z", to: "2026-12-01T00:00:00Z" },
      fieldError("to", "must be later than from"),
    ],
    [
      "from equal to to under another offset",
      { from: "2026-12-01T00:00:00-06:00", to: "2026-12-01T06:00:00Z" },
      fieldError("to", "must be later than from"),
    ],
    [
      "an unknown parameter",
      { from: "2026-11-01T00:00:00Z", to: "2026-12-01T00:00:00Z", since: "x" },
      fieldError("since", "is not a recognized field"),
    ],
  ])("%s -> 400 INVALID_INPUT naming the field", async (_name, query, expected) => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const res = await client.get(
      `/internal-accounts/${accountId}/balance-changes?${new URLSearchParams(query)}`,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });

  test("from and to both missing -> one FieldError each", async () => {
    const { client } = await platformAt(server, NOW);
    const accountId = await usdAccount(client);
    const res = await client.get(`/internal-accounts/${accountId}/balance-changes`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INVALID_INPUT",
      reason: "2 fields are invalid.",
      details: {
        errors: [
          { field: "from", message: "is required" },
          { field: "to", message: "is required" },
        ],
      },
    });
  });

  test("an unknown, malformed or foreign account -> 404 ACCOUNT_NOT_FOUND", async () => {
    const { client } = await platformAt(server, NOW);
    const other = await platformAt(server, NOW);
    const foreign = await usdAccount(other.client);
    for (const id of [
      "InternalAccount:0190a000-0000-7000-8000-0000000000bb",
      "InternalAccount:nope",
      "Customer:x",
      foreign,
    ]) {
      const res = await client.get(windowPath(id, "2026-12-01T00:00:00Z", "2026-12-02T00:00:00Z"));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "ACCOUNT_NOT_FOUND", reason: `No internal account ${id}.` });
    }
  });

  test("check order: a bad window is 400 before an unknown account's 404, which comes before 409", async () => {
    const { client } = await platformAt(server, NOW);
    const unknown = "InternalAccount:0190a000-0000-7000-8000-0000000000cc";
    const bad = await client.get(windowPath(unknown, "2026-12-02T00:00:00Z", "2026-12-01T00:00:00Z"));
    expect(bad.status).toBe(400);
    const missing = await client.get(windowPath(unknown, "2026-12-01T00:00:00Z", NOW));
    expect(missing.status).toBe(404);
  });
});

interface CursorCase {
  client: TestServer["client"];
  accountId: string;
  foreign: string;
  before: string;
  atTo: string;
}

async function cursorCase(): Promise<CursorCase> {
  const { client, platformId } = await platformAt(server, NOW);
  const accountId = await usdAccount(client);
  const otherAccount = await usdAccount(client);
  const post = (account: string, iso: string) =>
    postChange(server, platformId, account, { amount: 5, effectiveAt: new Date(iso) });
  const foreign = await post(otherAccount, "2026-12-02T01:00:00Z");
  const before = await post(accountId, "2026-12-01T23:59:59.999Z");
  await post(accountId, "2026-12-02T01:00:00Z");
  const atTo = await post(accountId, "2026-12-03T00:00:00Z");
  return { client, accountId, foreign: foreign.id, before: before.id, atTo: atTo.id };
}
