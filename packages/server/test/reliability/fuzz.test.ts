import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DbSnapshotter } from "../../fuzz/db-snapshot.js";
import { type FuzzTarget, formatResult, fuzz, seedFixtures } from "../../fuzz/fuzzer.js";
import { startServer, type TestServer } from "../harness.js";
import { sizes, timeoutFor } from "../sizes.js";

/**
 * Issue 9 parts 1 and 6, CI version of `npm run fuzz`: generated requests from a fixed seed over every
 * OpenAPI operation, with the same invariants: no 5xx, error bodies `{code, reason, details?}` with a
 * catalogue code and its status, every INVALID_INPUT names a field, every answer keeps the response
 * contract of the OpenAPI document, the server stays up, and nothing is
 * written for a rejected request (the database snapshot around every 4xx is unchanged, but for the writes
 * listed in fuzz/rejection-writes.ts). The job runner is stopped so only requests write.
 */
const REQUESTS = sizes.fuzzRequests;
let server: TestServer;
let target: FuzzTarget;

beforeAll(async () => {
  // A database of its own: the write detector snapshots every table around each rejected request.
  server = await startServer({ ownDatabase: true });
  await server.jobs.stop();
  const other = await server.newPlatform();
  target = { origin: server.origin, baseUrl: server.baseUrl, primary: server.platform, secondary: other };
});

afterAll(async () => {
  await server.close();
});

describe("the write detector (issue 9 part 6)", () => {
  test("it names a table a committed write changed, and sees nothing after a rolled-back one or a re-read", async () => {
    const db = server.db;
    const detector = new DbSnapshotter(db);
    await detector.install();
    await detector.changes();
    expect(await detector.changes()).toEqual([]);
    await db
      .transaction(async (tx) => {
        await tx.query("UPDATE platforms SET name = name || 'x'");
        throw new Error("roll back");
      })
      .catch(() => undefined);
    expect(await detector.changes()).toEqual([]);
    await db.query("UPDATE platforms SET name = name || 'x' WHERE id = $1", [server.platform.platformId]);
    expect(await detector.changes()).toEqual([{ table: "platforms", rowDelta: 0 }]);
    await db.query("UPDATE platforms SET name = left(name, -1) WHERE id = $1", [server.platform.platformId]);
    expect(await detector.changes()).toEqual([{ table: "platforms", rowDelta: 0 }]);
  });
});

describe("fuzz every route (issue 9 parts 1 and 6)", () => {
  test(`${REQUESTS} generated requests, seed 20251013: no violation, nothing written for a rejected request, server up`, {
    timeout: timeoutFor(REQUESTS, 60),
  }, async () => {
    const fixtures = await seedFixtures(target);
    const snapshots = new DbSnapshotter(server.db);
    const result = await fuzz(target, fixtures, { requests: REQUESTS, seed: 20251013, snapshots });
    expect(result.sent).toBeGreaterThan(REQUESTS / 4);
    expect(result.rejectionsChecked).toBeGreaterThan(REQUESTS / 4);
    expect(result.healthy).toBe(true);
    expect(result.violations, formatResult(result)).toEqual([]);
  });
});
