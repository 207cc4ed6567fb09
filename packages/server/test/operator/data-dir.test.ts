import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { migratedDataDir, runPaysvc } from "../paysvc-process.js";
import { expectPrivate, modesUnder, startOn, stop } from "./process-helpers.js";

// Issue 16 item 3: the embedded database's files hold private keys, so they are the service user's alone.
// Item 5: one process per embedded database directory.

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function freshDir(): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), "paysvc-private-"));
  dirs.push(parent);
  return join(parent, "data");
}

/** A data directory with its database already migrated, for tests about a directory's lock, not its creation. */
async function migratedDir(): Promise<string> {
  const dir = await migratedDataDir("paysvc-held");
  dirs.push(dir);
  return dir;
}

describe("the embedded database's files are private (0700 directories, 0600 files)", () => {
  test("a new data directory is created 0700 and every file under it, the write-ahead log included, is 0600", async () => {
    const dataDir = await freshDir();
    const server = await startOn(dataDir);
    try {
      const entries = await modesUnder(dataDir);
      expect(entries.find((e) => e.path === dataDir)?.mode).toBe(0o700);
      expect(entries.some((e) => e.path.includes(`${join("db", "pg_wal")}`) && !e.directory)).toBe(true);
      await expectPrivate(dataDir);
    } finally {
      await stop(server.run);
    }
  }, 120_000);

  test("an existing directory with looser modes is tightened at start, with a log line", async () => {
    const dataDir = await migratedDataDir("paysvc-loose");
    dirs.push(dataDir);
    for (const entry of await modesUnder(dataDir)) await chmod(entry.path, entry.directory ? 0o777 : 0o666);
    const server = await startOn(dataDir);
    try {
      expect(server.run.output()).toMatch(/tightened data directory permissions/);
      await expectPrivate(dataDir);
    } finally {
      await stop(server.run);
    }
  }, 120_000);
});

describe("one process per embedded database directory", () => {
  test("a second start on the same directory refuses, naming the holder's pid; the first keeps serving", async () => {
    const dataDir = await migratedDir();
    const first = await startOn(dataDir);
    try {
      const second = await runPaysvc(["start", "--port", "0", "--data-dir", dataDir], {
        env: { LOG_LEVEL: "silent" },
      });
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`in use by another paysvc process (pid ${first.run.child.pid})`);
      expect(second.stdout).not.toContain("listening");
      const health = await fetch(`${first.base}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      await stop(first.run);
    }
  }, 120_000);

  test("migrate on a directory a server holds refuses too", async () => {
    const dataDir = await migratedDir();
    const first = await startOn(dataDir);
    try {
      const migrate = await runPaysvc(["migrate", "--data-dir", dataDir], { env: { LOG_LEVEL: "silent" } });
      expect(migrate.code).toBe(1);
      expect(migrate.stderr).toContain(`pid ${first.run.child.pid}`);
    } finally {
      await stop(first.run);
    }
  }, 120_000);

  test("a holder killed without unlocking does not block the next start", async () => {
    const dataDir = await migratedDir();
    const first = await startOn(dataDir);
    first.run.child.kill("SIGKILL");
    await stop(first.run);
    const next = await startOn(dataDir);
    try {
      expect((await fetch(`${next.base}/healthz`)).status).toBe(200);
    } finally {
      await stop(next.run);
    }
  }, 120_000);
});
