import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { lockDataDir } from "../../src/core/db/data-dir.js";
import { openPglite } from "../../src/core/db/pglite.js";
import { migratedDataDir, runPaysvc } from "../paysvc-process.js";
import { startOn, stop } from "./process-helpers.js";

// Issue 16 item 5: operator commands work while the server runs, through its operator API (the server
// alone writes its embedded database), and never report a change that is then lost.

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A data directory whose embedded database is already migrated: a copy, not an initdb and every migration. */
async function freshDir(): Promise<string> {
  const dir = await migratedDataDir("paysvc-operator");
  dirs.push(dir);
  return dir;
}

const paysvc = (args: string[]) => runPaysvc(args, { env: { LOG_LEVEL: "silent" } });

async function platformRows(dataDir: string): Promise<{ id: string; daily_volume_limit: number }[]> {
  const db = await openPglite({ dataDir: join(dataDir, "db") });
  try {
    return await db.query<{ id: string; daily_volume_limit: number }>(
      "SELECT id, daily_volume_limit FROM platforms ORDER BY created_at",
    );
  } finally {
    await db.close();
  }
}

describe("operator commands against a running embedded server", () => {
  test("create-platform, card-limits and daily-volume-limit go through the server's operator API and survive a restart", async () => {
    const dataDir = await freshDir();
    const server = await startOn(dataDir);
    let platformId: string;
    let authorization: string;
    try {
      const created = await paysvc(["create-platform", "--data-dir", dataDir, "--name", "Operated"]);
      expect(created.code, created.stderr).toBe(0);
      const body = JSON.parse(created.stdout) as {
        platform: { id: string };
        token: { clientId: string; clientSecret: string };
      };
      platformId = body.platform.id;
      authorization = `Basic ${Buffer.from(`${body.token.clientId}:${body.token.clientSecret}`).toString("base64")}`;
      const limits = await paysvc([
        "card-limits",
        "--data-dir",
        dataDir,
        "--platform",
        platformId,
        "--max-live-cards",
        "7",
      ]);
      expect(limits.code, limits.stderr).toBe(0);
      expect(JSON.parse(limits.stdout)).toEqual({
        platformId,
        maxLiveCards: 7,
        maxLiveCardsPerCardholder: null,
      });
      const volume = await paysvc([
        "daily-volume-limit",
        "--data-dir",
        dataDir,
        "--platform",
        platformId,
        "--limit",
        "12345",
      ]);
      expect(volume.code, volume.stderr).toBe(0);
      expect(JSON.parse(volume.stdout)).toEqual({ platformId, dailyVolumeLimit: 12345 });
      const config = await fetch(`${server.base}/2025-10-13/config`, { headers: { authorization } });
      expect(config.status).toBe(200);
      expect(((await config.json()) as { cardLimits: unknown }).cardLimits).toMatchObject({
        maxLiveCards: 7,
      });
    } finally {
      await stop(server.run);
    }
    expect((await platformRows(dataDir)).find((p) => p.id === platformId)?.daily_volume_limit).toBe(12345);
    const again = await startOn(dataDir);
    try {
      const config = await fetch(`${again.base}/2025-10-13/config`, { headers: { authorization } });
      expect(config.status).toBe(200);
      expect(((await config.json()) as { cardLimits: unknown }).cardLimits).toMatchObject({
        maxLiveCards: 7,
      });
    } finally {
      await stop(again.run);
    }
  }, 150_000);

  test("rotate-webhook-key lists a new key for that platform only, through the server and directly", async () => {
    const dataDir = await freshDir();
    const server = await startOn(dataDir);
    const kids = async (authorization: string) => {
      const res = await fetch(`${server.base}/2025-10-13/webhooks/signing-keys`, {
        headers: { authorization },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);
    };
    try {
      const created = await paysvc(["create-platform", "--data-dir", dataDir, "--name", "Other"]);
      const other = JSON.parse(created.stdout) as {
        platform: { id: string };
        token: { clientId: string; clientSecret: string };
      };
      const otherAuth = `Basic ${Buffer.from(`${other.token.clientId}:${other.token.clientSecret}`).toString("base64")}`;
      const sandboxId = JSON.parse(await readFile(join(dataDir, "credentials.json"), "utf8"))
        .platformId as string;
      const [before, otherBefore] = [await kids(server.authorization), await kids(otherAuth)];
      const rotated = await paysvc(["rotate-webhook-key", "--data-dir", dataDir, "--platform", sandboxId]);
      expect(rotated.code, rotated.stderr).toBe(0);
      const answer = JSON.parse(rotated.stdout) as { platformId: string; newKey: { kid: string } };
      expect(answer.platformId).toBe(sandboxId);
      expect(await kids(server.authorization)).toEqual(
        expect.arrayContaining([...before, answer.newKey.kid]),
      );
      expect((await kids(server.authorization)).length).toBe(before.length + 1);
      expect(await kids(otherAuth)).toEqual(otherBefore);
    } finally {
      await stop(server.run);
    }
    const direct = await paysvc(["rotate-webhook-key", "--data-dir", dataDir, "--platform", "Platform:nope"]);
    expect(direct.code).toBe(1);
    expect(direct.stderr).toMatch(/^paysvc rotate-webhook-key: No platform Platform:nope/);
  }, 150_000);

  test("an unknown platform through the operator API: exit 1 with PLATFORM_NOT_FOUND", async () => {
    const dataDir = await freshDir();
    const server = await startOn(dataDir);
    try {
      const result = await paysvc([
        "daily-volume-limit",
        "--data-dir",
        dataDir,
        "--platform",
        "Platform:0190f1c8-1111-7000-8000-000000000abc",
        "--limit",
        "5",
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^paysvc daily-volume-limit: PLATFORM_NOT_FOUND: /);
    } finally {
      await stop(server.run);
    }
  }, 120_000);

  test("the operator API takes only the operator secret: a platform token, a wrong secret or none is 401", async () => {
    const dataDir = await freshDir();
    const server = await startOn(dataDir);
    try {
      const body = JSON.stringify({ name: "Sneaky", environment: "PRODUCTION" });
      for (const authorization of [server.authorization, "Bearer 0000", undefined]) {
        const res = await fetch(`${server.base}/_operator/platforms`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
          body,
        });
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({ code: "UNAUTHORIZED", reason: expect.any(String) });
        expect(res.headers.get("x-request-id")).toBeTruthy();
      }
    } finally {
      await stop(server.run);
    }
    expect((await platformRows(dataDir)).length).toBe(1);
  }, 120_000);

  test("a locked directory whose server cannot be reached: the command says so and changes nothing", async () => {
    const dataDir = await freshDir();
    const created = await paysvc(["create-platform", "--data-dir", dataDir, "--name", "First"]);
    expect(created.code, created.stderr).toBe(0);
    const lock = await lockDataDir(dataDir, () => {});
    try {
      // A server that published its address and is gone (port 9 is discard: nothing listens there).
      await writeFile(
        join(dataDir, "operator.json"),
        JSON.stringify({ secret: "f".repeat(64), url: "http://127.0.0.1:9" }),
        { mode: 0o600 },
      );
      const result = await paysvc(["create-platform", "--data-dir", dataDir, "--name", "Lost"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`in use by another paysvc process (pid ${process.pid})`);
      expect(result.stderr).toContain("not reachable: nothing changed");
    } finally {
      await lock.release();
    }
    expect((await platformRows(dataDir)).length).toBe(1);
  }, 120_000);
});
