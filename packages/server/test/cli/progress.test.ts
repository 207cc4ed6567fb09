import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ControlledClock } from "../../src/core/clock.js";
import { newUsdAccount, startServer, type TestServer } from "../harness.js";
import { type PaysvcProcess, paysvcBuilt, runPaysvc, spawnPaysvc } from "../paysvc-process.js";

// The compiled bin is built in the background when the sources changed: not on a test's clock.
beforeAll(() => paysvcBuilt(), 300_000);

const listening = /paysvc sandbox listening on /;

async function stopped(run: PaysvcProcess): Promise<number | null> {
  const exited = once(run.child, "exit");
  run.child.kill("SIGTERM");
  return (await exited)[0] as number | null;
}

describe("progress on a first start", () => {
  let parent: string;
  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), "paysvc-first-start-"));
  });
  afterAll(() => rm(parent, { recursive: true, force: true }));

  test("a first start says it creates the embedded database and applies the migrations; a later start says neither", async () => {
    const dataDir = join(parent, "data");
    const first = await spawnPaysvc(["start", "--port", "0", "--data-dir", dataDir], {
      env: { LOG_LEVEL: "warn" },
    });
    await first.waitFor(
      new RegExp(
        `paysvc: creating the embedded database in ${join(dataDir, "db")} \\(first start on this data directory\\)\n`,
      ),
    );
    await first.waitFor(/paysvc: applying \d+ database migration\(s\)\n/);
    await first.waitFor(listening);
    // The progress lines come before the server listens, in that order.
    const text = first.output();
    expect(text.indexOf("creating the embedded database")).toBeLessThan(text.indexOf("applying"));
    expect(text.indexOf("applying")).toBeLessThan(text.indexOf("listening on"));
    expect(await stopped(first)).toBe(0);

    const later = await spawnPaysvc(["start", "--port", "0", "--data-dir", dataDir], {
      env: { LOG_LEVEL: "warn" },
    });
    await later.waitFor(/API token id /);
    expect(await stopped(later)).toBe(0);
    expect(later.output()).not.toMatch(/creating the embedded database|applying/);
  }, 240_000); // initdb and every migration on a loaded 2-core machine
});

describe("progress while building a statement", () => {
  let server: TestServer;
  let accountId: string;
  const lagMs = 60_000;
  beforeAll(async () => {
    server = await startServer({
      clock: new ControlledClock(new Date("2026-09-20T00:00:00Z")),
      settlementLagMs: lagMs,
    });
    accountId = await newUsdAccount(server.client);
    expect((await server.client.post("/sandbox/clock/advance", { to: "2026-10-05T15:00:00Z" })).status).toBe(
      200,
    );
    // 201 balance changes: more than one page of 200.
    for (let i = 0; i < 201; i++) {
      const funded = await server.client.post(`/sandbox/internal-accounts/${accountId}/fund`, {
        amount: 100 + i,
      });
      expect(funded.status).toBe(200);
    }
  }, 120_000);
  afterAll(() => server.close());

  const env = () => ({
    PAYSVC_CLIENT_ID: server.platform.clientId,
    PAYSVC_CLIENT_SECRET: server.platform.clientSecret,
  });
  const args = () => [
    "statement",
    "--account",
    accountId,
    "--month",
    "2026-10",
    "--url",
    server.baseUrl,
    "--format",
    "json",
  ];

  test("waiting out NOT_YET_AVAILABLE: the statement says it waits, then prints once the month closes", async () => {
    // October ends at 2026-11-01T05:00Z and closes one lag later: one second before that, the server
    // answers 409 Retry-After 1, and keeps answering it until its clock moves.
    const closesAt = Date.parse("2026-11-01T05:00:00Z") + lagMs;
    const before = new Date(closesAt - 1_000).toISOString();
    expect((await server.client.post("/sandbox/clock/advance", { to: before })).status).toBe(200);
    const run = await spawnPaysvc(args(), { env: env() });
    await run.waitFor(
      /paysvc statement: 2026-10 is not closed yet: card settlement closes in 1 s; waiting\n/,
    );
    const exited = once(run.child, "exit");
    const after = new Date(closesAt + 1_000).toISOString();
    expect((await server.client.post("/sandbox/clock/advance", { to: after })).status).toBe(200);
    expect((await exited)[0], run.output()).toBe(0);
    expect(run.output()).toContain('"closingBalance"');
  }, 60_000);

  test("paging a statement: each page read and the transactions read are reported on stderr", async () => {
    const result = await runPaysvc(args(), { env: env() });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines.slice(0, 3)).toEqual([
      "paysvc statement: read page 1: 200 of 201 balance changes",
      "paysvc statement: read page 2: 201 of 201 balance changes",
      "paysvc statement: reading 201 transactions",
    ]);
    expect(lines.slice(3)).toEqual([
      "paysvc statement: read 100 of 201 transactions",
      "paysvc statement: read 200 of 201 transactions",
      "paysvc statement: read 201 of 201 transactions",
    ]);
    expect(JSON.parse(result.stdout).lines).toHaveLength(201);
  }, 60_000);

  test("a statement of one page reports no progress: stderr stays empty", async () => {
    const other = await newUsdAccount(server.client);
    const result = await runPaysvc(
      ["statement", "--account", other, "--month", "2026-10", "--url", server.baseUrl],
      { env: env() },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
  }, 30_000);
});
