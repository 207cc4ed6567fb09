import { spawn } from "node:child_process";
import { once } from "node:events";
import { access, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  migratedDataDir,
  type PaysvcProcess,
  paysvcBuilt,
  runPaysvc,
  spawnPaysvc,
} from "../paysvc-process.js";

// The compiled bin is built in the background when the sources changed: not on a test's clock.
beforeAll(() => paysvcBuilt(), 300_000);

const listening = /paysvc sandbox listening on (http:\/\/127\.0\.0\.1:(\d+)\/2025-10-13)\n/;

/** A pid no process has now: a process that ran and exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await once(child, "exit");
  if (child.pid === undefined) throw new Error("no pid");
  return child.pid;
}

/** The month two months before now (`YYYY-MM`): ended and closed whatever the time zone. */
function twoMonthsAgo(): string {
  const now = new Date();
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
  return at.toISOString().slice(0, 7);
}

describe("<data dir>/server.json", () => {
  let dataDir: string;
  let run: PaysvcProcess;
  let url: string;
  let port: string;
  beforeAll(async () => {
    dataDir = await migratedDataDir("paysvc-server-file");
    // PORT (not --port) picks the port: the commands below never learn it but from server.json.
    run = await spawnPaysvc(["start", "--data-dir", dataDir], {
      env: { PORT: "0", LOG_LEVEL: "warn", PAYSVC_SETTLEMENT_LAG_HOURS: "0" },
    });
    [, url = "", port = ""] = await run.waitFor(listening);
    await run.waitFor(/API token id /);
  }, 120_000);
  afterAll(async () => {
    if (run.child.exitCode === null && run.child.signalCode === null) {
      const exited = once(run.child, "exit");
      run.child.kill("SIGTERM");
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  test("the server writes its URL and pid to <data dir>/server.json when it listens", async () => {
    const file = JSON.parse(await readFile(join(dataDir, "server.json"), "utf8"));
    expect(file).toMatchObject({ url, pid: run.child.pid, mode: "sandbox" });
  });

  test("statement finds the server from server.json, so a PORT override just works", async () => {
    const { clientId, clientSecret } = JSON.parse(await readFile(join(dataDir, "credentials.json"), "utf8"));
    const authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
    const created = await fetch(`${url}/customers`, {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Found By File" }),
    });
    expect(created.status).toBe(201);
    const customerId = ((await created.json()) as { id: string }).id;
    const accounts = await fetch(`${url}/customers/internal-accounts?customerId=${customerId}`, {
      headers: { authorization },
    });
    const [account] = ((await accounts.json()) as { data: { id: string }[] }).data;
    const month = twoMonthsAgo();
    const result = await runPaysvc([
      "statement",
      "--data-dir",
      dataDir,
      "--account",
      account?.id ?? "",
      "--month",
      month,
      "--format",
      "json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ account: { id: account?.id }, period: { month } });
  }, 30_000);

  test("a port in use by a paysvc server: the message names its pid, and nothing changes", async () => {
    const before = await readFile(join(dataDir, "server.json"), "utf8");
    const second = await runPaysvc(["start", "--port", port, "--data-dir", dataDir]);
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `paysvc: port ${port} on 127.0.0.1 is already in use by paysvc pid ${run.child.pid} (${join(dataDir, "server.json")}); stop that process, or use --port N or PORT=N (0 picks a free port)\n`,
    );
    expect(await readFile(join(dataDir, "server.json"), "utf8")).toBe(before);
  }, 30_000);

  test("server.json is removed when the server stops cleanly", async () => {
    const exited = once(run.child, "exit");
    run.child.kill("SIGTERM");
    expect((await exited)[0]).toBe(0);
    await expect(access(join(dataDir, "server.json"))).rejects.toMatchObject({ code: "ENOENT" });
  }, 30_000);
});

describe("a stale server.json", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "paysvc-stale-"));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  test("a server.json whose pid is gone is ignored with a clear message", async () => {
    const pid = await deadPid();
    const file = join(dataDir, "server.json");
    const stale = {
      url: "http://127.0.0.1:9/2025-10-13",
      pid,
      mode: "sandbox",
      startedAt: "2026-01-01T00:00:00Z",
    };
    await writeFile(file, JSON.stringify(stale));
    const result = await runPaysvc(
      ["statement", "--data-dir", dataDir, "--account", "InternalAccount:x", "--month", "2026-01"],
      { env: { PAYSVC_CLIENT_ID: "id", PAYSVC_CLIENT_SECRET: "secret" } },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `paysvc statement: ignoring ${file}: the server that wrote it (pid ${pid}) is not running; trying http://127.0.0.1:8080/2025-10-13\n`,
    );
    expect(result.stderr).not.toContain("127.0.0.1:9/");
  }, 30_000);
});
