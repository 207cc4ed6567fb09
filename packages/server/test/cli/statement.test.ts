import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runStatementCommand, type StatementCommand } from "../../src/cli/statement.js";
import { parseSettings } from "../../src/config.js";
import { ControlledClock } from "../../src/core/clock.js";
import { startServer, type TestServer } from "../harness.js";
import { paysvcBuilt, runPaysvc } from "../paysvc-process.js";
import { startIntegrityPeer } from "./integrity-peer.js";

// The compiled bin is built in the background when the sources changed: not on a test's clock.
beforeAll(() => paysvcBuilt(), 300_000);

let server: TestServer;
let accountId: string;
let dataDir: string;
beforeAll(async () => {
  server = await startServer({
    clock: new ControlledClock(new Date("2026-09-20T00:00:00Z")),
    settlementLagMs: 60_000,
  });
  const client = server.client;
  const customer = await client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    fullName: "Cli User",
  });
  const accounts = await client.get<{
    data: { id: string; type: string; balance: { currency: { code: string } } }[];
  }>(`/customers/internal-accounts?customerId=${customer.body.id}`);
  accountId =
    accounts.body.data.find((a) => a.type === "INTERNAL_FIAT" && a.balance.currency.code === "USD")?.id ?? "";
  for (const [to, amount] of [
    ["2026-10-05T15:00:00.000Z", 12_345],
    ["2026-10-20T15:00:00.000Z", 655],
  ] as const) {
    expect((await client.post("/sandbox/clock/advance", { to })).status).toBe(200);
    expect((await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount })).status).toBe(200);
  }
  expect((await client.post("/sandbox/clock/advance", { to: "2026-11-01T05:01:00.000Z" })).status).toBe(200);
  dataDir = await mkdtemp(join(tmpdir(), "paysvc-statement-"));
});
afterAll(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

function command(overrides: Partial<StatementCommand> = {}): StatementCommand {
  const { clientId, clientSecret } = server.platform;
  return {
    account: accountId,
    month: "2026-10",
    format: "text",
    url: server.baseUrl,
    confirm: false,
    feesAsSeparateLines: false,
    credentials: { clientId, clientSecret },
    dataDir,
    ...overrides,
  };
}

async function run(overrides: Partial<StatementCommand> = {}) {
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  };
  const code = await runStatementCommand(command(overrides), io);
  return { code, stdout, stderr };
}

describe("paysvc statement (called directly)", () => {
  test("prints the text statement and exits 0; --confirm sends the receipt: recorded, then already recorded", async () => {
    const first = await run({ confirm: true });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("Opening balance on October 1, 2026: $0.00");
    expect(first.stdout).toContain("Closing balance on October 31, 2026: $130.00");
    expect(first.stdout).toMatch(/2026-10-05\s+INCOMING\s+Sandbox funding\s+\$123\.45/);
    expect(first.stderr).toMatch(/receipt for .* 2026-10-01T00:00:00-05:00 recorded \(confirmedAt /);
    const again = await run({ confirm: true });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/was already recorded/);
    const deliveries = await server.client.get<{ data: { confirmedAt?: string }[] }>(
      `/internal-accounts/${accountId}/statement-deliveries`,
    );
    expect(deliveries.body.data).toHaveLength(1);
    expect(deliveries.body.data[0]?.confirmedAt).toEqual(expect.any(String));
  });

  test("--format json and html, with credentials read from <data dir>/credentials.json and --contact", async () => {
    await writeFile(join(dataDir, "credentials.json"), JSON.stringify(server.platform), { mode: 0o600 });
    const json = await run({ format: "json", credentials: undefined, contact: "help@platform.example" });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      openingBalance: 0,
      closingBalance: 13_000,
      questionsContact: "help@platform.example",
      period: { month: "2026-10", start: "2026-10-01T00:00:00-05:00", end: "2026-11-01T00:00:00-05:00" },
    });
    const html = await run({ format: "html", credentials: undefined, contact: "<help@platform.example>" });
    expect(html.stdout).toMatch(/^<!doctype html>/);
    expect(html.stdout).toContain("&lt;help@platform.example&gt;");
  });

  test("no credentials anywhere → exit 1 with what to set", async () => {
    const empty = await mkdtemp(join(tmpdir(), "paysvc-nocreds-"));
    try {
      const result = await run({ credentials: undefined, dataDir: empty });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /credentials\.json does not exist; set PAYSVC_CLIENT_ID and PAYSVC_CLIENT_SECRET/,
      );
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  test("an API error → exit 1 with its code, reason and request id, nothing on stdout", async () => {
    const result = await run({ account: "InternalAccount:0199a0a0-0000-7000-8000-00000000dead" });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/ACCOUNT_NOT_FOUND: .*\(request id req_/);
  });

  test("a statement that fails its integrity check → exit 2, nothing printed, no receipt sent", async () => {
    const peer = await startIntegrityPeer();
    try {
      const result = await run({ url: peer.baseUrl, account: peer.accountId, confirm: true });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/STATEMENT NOT ISSUED.*must not be sent; contact paysvc support/);
      expect(result.stderr).toMatch(/STATEMENT_INTEGRITY_FAILED/);
      expect(result.stderr).toContain('"check": "BALANCE_IDENTITY"');
      expect(peer.requests.some((r) => r.startsWith("POST"))).toBe(false);
    } finally {
      await peer.close();
    }
  });
});

describe("paysvc statement settings", () => {
  test("defaults: text, no URL (the running server's, found at run time), no confirm; credentials from the environment when both are set", () => {
    const settings = parseSettings(["statement", "--account", "A", "--month", "2026-10"], {
      PAYSVC_CLIENT_ID: "id",
      PAYSVC_CLIENT_SECRET: "secret",
    });
    expect(settings.statement).toEqual({
      account: "A",
      month: "2026-10",
      format: "text",
      confirm: false,
      feesAsSeparateLines: false,
      credentials: { clientId: "id", clientSecret: "secret" },
    });
    expect(parseSettings(["start"], {}).statement).toBeUndefined();
  });

  test.each([
    [["statement", "--month", "2026-10"], /statement needs --account/],
    [["statement", "--account", "A", "--month", "2026-13"], /statement\/month/],
    [["statement", "--account", "A", "--month", "2026-10", "--format", "pdf"], /statement\/format/],
  ])("%j is refused with one readable message", (argv, message) => {
    expect(() => parseSettings(argv, {})).toThrow(message);
  });

  test("--url, else PAYSVC_URL, names the server; without either the command looks for it at run time", () => {
    const argv = ["statement", "--account", "A", "--month", "2026-10"];
    const env = { PAYSVC_URL: "http://127.0.0.1:9001/2025-10-13" };
    expect(parseSettings([...argv, "--url", "http://127.0.0.1:9000/2025-10-13"], env).statement?.url).toBe(
      "http://127.0.0.1:9000/2025-10-13",
    );
    expect(parseSettings(argv, env).statement?.url).toBe("http://127.0.0.1:9001/2025-10-13");
    expect(parseSettings(argv, {}).statement?.url).toBeUndefined();
  });

  test("only one of PAYSVC_CLIENT_ID / PAYSVC_CLIENT_SECRET is refused", () => {
    expect(() =>
      parseSettings(["statement", "--account", "A", "--month", "2026-10"], { PAYSVC_CLIENT_ID: "x" }),
    ).toThrow(/both PAYSVC_CLIENT_ID and PAYSVC_CLIENT_SECRET/);
  });
});

/** Runs the `paysvc` bin; resolves with the exit code and output. */
const paysvc = (args: string[], env: Record<string, string> = {}) => runPaysvc(args, { env });

describe("paysvc statement (the bin, spawned)", () => {
  test("prints the JSON statement and exits 0", async () => {
    const { clientId, clientSecret } = server.platform;
    const env = { PAYSVC_CLIENT_ID: clientId, PAYSVC_CLIENT_SECRET: clientSecret };
    const args = [
      "statement",
      "--account",
      accountId,
      "--month",
      "2026-10",
      "--format",
      "json",
      "--url",
      server.baseUrl,
    ];
    const result = await paysvc(args, env);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ account: { id: accountId }, closingBalance: 13_000 });
  }, 30_000);

  test("exits 2 on a statement that fails its integrity check", async () => {
    const peer = await startIntegrityPeer();
    try {
      const env = { PAYSVC_CLIENT_ID: "id", PAYSVC_CLIENT_SECRET: "secret" };
      const result = await paysvc(
        ["statement", "--account", peer.accountId, "--month", "2026-10", "--url", peer.baseUrl],
        env,
      );
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/STATEMENT NOT ISSUED/);
    } finally {
      await peer.close();
    }
  }, 30_000);

  test("exits 1 with one readable message when --month is missing", async () => {
    const result = await paysvc(["statement", "--account", "A"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^paysvc: invalid configuration: statement needs --month/);
  }, 30_000);
});
