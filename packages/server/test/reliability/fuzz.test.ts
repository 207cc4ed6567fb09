import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type FuzzTarget, formatResult, fuzz, seedFixtures } from "../../fuzz/fuzzer.js";
import { startServer, type TestServer } from "../harness.js";

/**
 * Issue 9 part 1, CI version of `npm run fuzz`: 1,000 requests from a fixed seed, every OpenAPI
 * operation, the same invariants (no 5xx, error bodies `{code, reason, details?}` with a catalogue code
 * and its status, every INVALID_INPUT names a field, the server stays up).
 */
let server: TestServer;
let target: FuzzTarget;

beforeAll(async () => {
  server = await startServer();
  const other = await server.newPlatform();
  target = { origin: server.origin, baseUrl: server.baseUrl, primary: server.platform, secondary: other };
});

afterAll(async () => {
  await server.close();
});

describe("fuzz every route (issue 9 part 1)", () => {
  test("1,000 generated requests, seed 20251013: no violation, server up", { timeout: 60_000 }, async () => {
    const fixtures = await seedFixtures(target);
    const result = await fuzz(target, fixtures, { requests: 1_000, seed: 20251013 });
    expect(result.sent).toBeGreaterThan(250);
    expect(result.healthy).toBe(true);
    expect(result.violations, formatResult(result)).toEqual([]);
  });
});
