import { once } from "node:events";
import { access, readFile, rm } from "node:fs/promises";
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

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function stop(run: PaysvcProcess | undefined): Promise<void> {
  if (!run || run.child.exitCode !== null || run.child.signalCode !== null) return;
  const exited = once(run.child, "exit");
  run.child.kill("SIGTERM");
  await exited;
}

describe("paysvc seed, logs tail, statement --no-wait and sandbox reset", () => {
  let dataDir: string;
  let server: PaysvcProcess;
  let base: string;
  let authorization: string;
  let seeded: Record<string, string>;
  beforeAll(async () => {
    dataDir = await migratedDataDir("paysvc-seed");
    server = await spawnPaysvc(["start", "--port", "0", "--data-dir", dataDir], {
      env: { LOG_LEVEL: "warn" },
    });
    [, base = ""] = await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+\/2025-10-13)\n/);
    await server.waitFor(/API token id /);
    const saved = JSON.parse(await readFile(join(dataDir, "credentials.json"), "utf8"));
    authorization = `Basic ${Buffer.from(`${saved.clientId}:${saved.clientSecret}`).toString("base64")}`;
  }, 300_000);
  afterAll(async () => {
    await stop(server);
    await rm(dataDir, { recursive: true, force: true });
  });

  const api = async <T>(path: string, init: RequestInit = {}) =>
    (await (
      await fetch(`${base}${path}`, {
        ...init,
        headers: { authorization, "content-type": "application/json", ...init.headers },
      })
    ).json()) as T;

  test("seed creates the customers, accounts, a card and a month of activity through the API and prints their ids (--json)", async () => {
    const result = await runPaysvc(["seed", "--json", "--data-dir", dataDir]);
    expect(result.code, result.stderr).toBe(0);
    seeded = JSON.parse(result.stdout);
    expect(seeded).toEqual({
      CUSTOMER: expect.stringMatching(/^Customer:/),
      USD: expect.stringMatching(/^InternalAccount:/),
      CARD: expect.stringMatching(/^Card:/),
      CUSTOMER2: expect.stringMatching(/^Customer:/),
      USD2: expect.stringMatching(/^InternalAccount:/),
      MONTH: expect.stringMatching(/^\d{4}-\d{2}$/),
      MONTH_CLOSED_AT: expect.stringMatching(/^\d{4}-\d{2}-04T12:00:00Z$/),
    });
    const card = await api<{ status: string; cardholderId: string }>(`/cards/${seeded.CARD}`);
    expect(card).toMatchObject({ status: "ACTIVE", cardholderId: seeded.CUSTOMER });
    const customer = await api<{ fullName: string; platformCustomerId: string }>(
      `/customers/${seeded.CUSTOMER}`,
    );
    expect(customer).toMatchObject({ fullName: "Ada Lovelace", platformCustomerId: "seed-ada" });
    // The activity is in the seeded month, on the sandbox clock: deposits, transfers and card purchases.
    // The seed leaves the clock on the month's 28th; a window may end only where card settlement has closed
    // (72 h back), so it ends 4 days before the clock: Ada's deposits, transfers and purchases of days 1-20.
    const clock = await api<{ now: string }>("/sandbox/clock");
    const from = encodeURIComponent(`${seeded.MONTH}-01T00:00:00-06:00`);
    const to = encodeURIComponent(new Date(Date.parse(clock.now) - 4 * 86_400_000).toISOString());
    const changes = await api<{ data: { amount: { amount: number } }[] }>(
      `/internal-accounts/${seeded.USD}/balance-changes?from=${from}&to=${to}&limit=200`,
    );
    expect(changes.data.length).toBeGreaterThanOrEqual(7);
    expect(clock.now.slice(0, 7)).toBe(seeded.MONTH);
  }, 300_000);

  test("a second seed is refused: exit 1, naming the seeded customer and how to empty the sandbox", async () => {
    const result = await runPaysvc(["seed", "--data-dir", dataDir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `paysvc seed: this sandbox is seeded already (${seeded.CUSTOMER}, platformCustomerId seed-ada); paysvc sandbox reset empties it\n`,
    );
  }, 60_000);

  test("statement --no-wait: a month not closed yet is answered at once with when to retry", async () => {
    const next = new Date(`${seeded.MONTH}-01T12:00:00Z`);
    next.setUTCMonth(next.getUTCMonth() + 1);
    await api("/sandbox/clock/advance", { method: "POST", body: JSON.stringify({ to: next.toISOString() }) });
    const result = await runPaysvc([
      "statement",
      "--no-wait",
      "--account",
      seeded.USD ?? "",
      "--month",
      seeded.MONTH ?? "",
      "--data-dir",
      dataDir,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(
        `^paysvc statement: the statement for ${seeded.MONTH} is not available yet: card settlement for that month closes in \\d+ (d|h)`,
      ),
    );
    expect(result.stderr).not.toContain("waiting");
  }, 60_000);

  test("logs tail follows the platform's requests with method, path, status, latency and request id, filtered, without query strings", async () => {
    const tail = await spawnPaysvc([
      "logs",
      "tail",
      "--status",
      "4xx",
      "--path",
      "/customers",
      "--json",
      "--data-dir",
      dataDir,
    ]);
    try {
      await tail.waitFor(/paysvc logs tail: following the API requests/);
      const missing = await fetch(`${base}/customers/Customer:nope?secret=x`, { headers: { authorization } });
      await fetch(`${base}/customers?limit=1`, { headers: { authorization } });
      await fetch(`${base}/config`, { headers: { authorization } });
      const requestId = missing.headers.get("x-request-id");
      const [line = ""] = await tail.waitFor(/\{"seq"[^\n]*\n/);
      expect(JSON.parse(line)).toEqual({
        seq: expect.any(Number),
        at: expect.any(String),
        method: "GET",
        path: "/customers/Customer:nope",
        status: 404,
        latencyMs: expect.any(Number),
        requestId,
      });
      // The statuses and paths filtered out never print.
      await fetch(`${base}/customers/Customer:nope2`, { headers: { authorization } });
      await tail.waitFor(/Customer:nope2/);
      expect(tail.output()).not.toMatch(/"status":200|\/config|secret=/);
    } finally {
      await stop(tail);
    }
  }, 60_000);

  test("sandbox reset is refused while a server runs on the data directory", async () => {
    const result = await runPaysvc(["sandbox", "reset", "--yes", "--data-dir", dataDir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^paysvc sandbox reset: refused: a paysvc server \(pid \d+, http:\S+\) runs on \S+; stop it first\n$/,
    );
    expect(await exists(join(dataDir, "db"))).toBe(true);
  }, 60_000);

  test("sandbox reset without --yes and without a terminal to ask: refused, nothing removed", async () => {
    await stop(server);
    const result = await runPaysvc(["sandbox", "reset", "--data-dir", dataDir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("refused: not confirmed; pass --yes");
    expect(await exists(join(dataDir, "db"))).toBe(true);
  }, 120_000);

  test("sandbox reset in production mode: refused", async () => {
    const result = await runPaysvc(["sandbox", "reset", "--yes", "--data-dir", dataDir], {
      env: { PAYSVC_MODE: "production" },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("refused: PAYSVC_MODE is production");
    expect(await exists(join(dataDir, "db"))).toBe(true);
  }, 60_000);

  test("sandbox reset --yes removes the embedded database and the API token, and the next start makes a new sandbox", async () => {
    const before = JSON.parse(await readFile(join(dataDir, "credentials.json"), "utf8"));
    const result = await runPaysvc(["sandbox", "reset", "--yes", "--data-dir", dataDir]);
    expect(result.code, result.stderr).toBe(0);
    expect(await exists(join(dataDir, "db"))).toBe(false);
    expect(await exists(join(dataDir, "credentials.json"))).toBe(false);
    server = await spawnPaysvc(["start", "--port", "0", "--data-dir", dataDir], {
      env: { LOG_LEVEL: "warn" },
    });
    await server.waitFor(/API token id \S+ secret /);
    const after = JSON.parse(await readFile(join(dataDir, "credentials.json"), "utf8"));
    expect(after.clientId).not.toBe(before.clientId);
  }, 300_000);
});
