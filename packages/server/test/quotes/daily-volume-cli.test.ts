import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseDailyVolumeLimitArgs, runDailyVolumeLimitCommand } from "../../src/cli/daily-volume-limit.js";
import { startServer, type TestServer } from "../harness.js";
import { migratedDataDir, runPaysvc } from "../paysvc-process.js";
import { limitedPlatform, pair } from "./daily-volume-helpers.js";
import { transfer } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const platform = "Platform:01900000-0000-7000-8000-0000000004d2";

const capture = () => {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) } },
  };
};

describe("paysvc daily-volume-limit (operator command)", () => {
  test("parses --platform and --limit (USD cents)", () => {
    expect(parseDailyVolumeLimitArgs(["--platform", platform, "--limit", "250000"], {})).toEqual({
      platformId: platform,
      dailyVolumeLimit: 250_000,
      dataDir: ".paysvc",
    });
  });

  test.each([
    { args: ["--limit", "5"], message: /--platform required/ },
    { args: ["--platform", platform], message: /--limit required/ },
    { args: ["--platform", platform, "--limit", "1e3"], message: /dailyVolumeLimit/ },
    { args: ["--platform", platform, "--limit", "-5"], message: /invalid daily-volume-limit arguments/ },
    { args: ["--platform", platform, "--limit", "10.5"], message: /dailyVolumeLimit/ },
    { args: ["--platform", "Customer:x", "--limit", "5"], message: /platformId/ },
    { args: ["--platform", platform, "--limit", "5", "--color"], message: /--color/ },
  ])("refuses $args with one readable message", ({ args, message }) => {
    expect(() => parseDailyVolumeLimitArgs(args, {})).toThrow(message);
  });

  test("runs against the database: exit 0 with the new limit, which quote execution then enforces", async () => {
    const client = await limitedPlatform(server);
    const { from, to } = await pair(server, client, 10_000);
    const { out, io } = capture();
    const command = parseDailyVolumeLimitArgs(
      ["--platform", client.credentials.platformId, "--limit", "1500"],
      {},
    );
    expect(await runDailyVolumeLimitCommand(server.deps, command, io)).toBe(0);
    expect(JSON.parse(out.join(""))).toEqual({
      platformId: client.credentials.platformId,
      dailyVolumeLimit: 1_500,
    });
    const body = transfer(from, to, 1_000, { immediatelyExecute: true });
    expect((await client.post("/quotes", body)).status).toBe(201);
    expect((await client.post("/quotes", body)).status).toBe(429);
  });

  test("a limit of 0 refuses every execution", async () => {
    const client = await limitedPlatform(server, 0);
    const { from, to } = await pair(server, client, 10_000);
    expect((await client.post("/quotes", transfer(from, to, 1, { immediatelyExecute: true }))).status).toBe(
      429,
    );
  });

  test("an unknown platform: exit 1 with the reason on stderr", async () => {
    const { err, io } = capture();
    const command = parseDailyVolumeLimitArgs(["--platform", platform, "--limit", "1"], {});
    expect(await runDailyVolumeLimitCommand(server.deps, command, io)).toBe(1);
    expect(err.join("")).toMatch(/^paysvc daily-volume-limit: no platform Platform:/);
  });
});

describe("paysvc daily-volume-limit (the bin, spawned)", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await migratedDataDir("paysvc-daily-volume");
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  /** Runs `paysvc` on the embedded database in `dataDir` (never DATABASE_URL). */
  const paysvc = (args: string[]) => runPaysvc(args, { env: { LOG_LEVEL: "silent" } });

  // One spawn on a migrated data directory: the command is dispatched, opens the database and reports the
  // unknown platform; the happy path is covered in-process above.
  test("daily-volume-limit on a data directory -> opens the database; an unknown platform exits 1", async () => {
    const result = await paysvc([
      "daily-volume-limit",
      "--data-dir",
      dataDir,
      "--platform",
      platform,
      "--limit",
      "777",
    ]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/^paysvc daily-volume-limit: no platform Platform:/);
  }, 30_000);

  test("invalid arguments: exit 1 with one readable message and the usage", async () => {
    const result = await paysvc(["daily-volume-limit", "--platform", "Platform:x"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^paysvc: invalid daily-volume-limit arguments: --limit required/);
    expect(result.stderr).toContain("usage: paysvc daily-volume-limit");
  }, 30_000);
});
