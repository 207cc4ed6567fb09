import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { openPostgres } from "../src/core/db/postgres.js";
import { enqueueEvents } from "../src/webhooks/outbox.js";
import { withEndUserTerms } from "../test/customers/end-user-terms.js";

const serverDir = fileURLToPath(new URL("../", import.meta.url));
/**
 * The Node arguments before paysvc's own: tsx on the TypeScript entry, as `npm start` runs it, in one
 * process (not the tsx wrapper: a SIGKILL must kill the server itself, not orphan it). Tests pass the
 * compiled bin instead (test/paysvc-process.ts).
 */
export const TSX_ENTRY: readonly string[] = ["--import", "tsx", "src/main.ts"];

export interface Paysvc {
  child: ChildProcessWithoutNullStreams;
  url: string;
  output: () => string;
  /** SIGKILL (no drain) or SIGTERM (drains), and waits for the exit. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

export interface SandboxCredentials {
  platformId: string;
  clientId: string;
  clientSecret: string;
}

/**
 * Starts the real process as `npm start` does (`tsx src/main.ts start --port 0 --data-dir DIR`), with
 * DATABASE_URL set only when `databaseUrl` is given, and resolves once it prints its URL.
 */
export async function startPaysvc(
  dataDir: string,
  databaseUrl?: string,
  entry: readonly string[] = TSX_ENTRY,
): Promise<Paysvc> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const env = { ...inherited, LOG_LEVEL: "warn", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  const child = spawn(process.execPath, [...entry, "start", "--port", "0", "--data-dir", dataDir], {
    cwd: serverDir,
    env,
  });
  let text = "";
  const exited = once(child, "exit");
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /paysvc sandbox listening on (\S+)\n/.exec(text);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`paysvc exited (${code}) before listening: ${text}`)));
  });
  return {
    child,
    url,
    output: () => text,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

export async function sandboxCredentials(dataDir: string): Promise<SandboxCredentials> {
  return JSON.parse(await readFile(join(dataDir, "credentials.json"), "utf8")) as SandboxCredentials;
}

export function basicAuth(credentials: SandboxCredentials): string {
  return `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString("base64")}`;
}

/**
 * A fresh database on the PostgreSQL server of `adminUrl`: empty, or a copy of `template` (a migrated
 * database, so no process spends its start migrating); `drop` removes it.
 */
export async function createScratchDatabase(
  adminUrl: string,
  prefix: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** A loopback receiver that answers 200 and records each delivery's event id (parsed from the body). */
export async function startIdReceiver(
  onBody: (body: string, headers: Record<string, unknown>) => string,
): Promise<{ url: string; ids: string[]; close: () => Promise<void> }> {
  const ids: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      try {
        ids.push(onBody(Buffer.concat(chunks).toString("utf8"), req.headers));
        res.end("ok");
      } catch (error) {
        res.statusCode = 400;
        res.end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    ids,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A new customer's USD internal account, through the API. */
export async function newUsdAccount(
  base: string,
  authorization: string,
): Promise<{ customerId: string; accountId: string }> {
  const headers = { authorization, "content-type": "application/json" };
  const customer = (await (
    await fetch(`${base}/customers`, {
      method: "POST",
      headers,
      body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Webhook Bench", ...withEndUserTerms }),
    })
  ).json()) as { id: string };
  const accounts = (await (
    await fetch(`${base}/customers/internal-accounts?customerId=${customer.id}&currency=USD`, { headers })
  ).json()) as { data: { id: string }[] };
  const account = accounts.data[0]?.id;
  if (!account) throw new Error(`no USD account for ${customer.id}`);
  return { customerId: customer.id, accountId: account };
}

export interface WebhookFigures {
  /**
   * Delivery capacity: a backlog of events committed at once straight through the outbox, drained by the
   * two processes; distinct events at the receiver per second from the commit to the last delivery.
   */
  eventsPerSecond: number;
  /** End to end: distinct events at the receiver over the time from the first funding to the last delivery. */
  endToEndEventsPerSecond: number;
  duplicates: number;
  /** Committed events the receiver had not seen when the bench stopped waiting. */
  undelivered: number;
}

/** Events committed at once for the delivery-capacity figure (a funding makes only a few per request). */
const BACKLOG_EVENTS = Number(process.env.BENCH_WEBHOOK_BACKLOG ?? 10_000);
const BACKLOG_BATCH = 1_000;

/**
 * Commits `BACKLOG_EVENTS` events through the outbox (enqueueEvents, as any producer writes them) in one
 * transaction, then times the running processes delivering them all: what delivery alone sustains, which
 * the API's fundings cannot produce fast enough to show.
 */
async function drainBacklog(
  url: string,
  platformId: string,
  receiver: { ids: string[] },
): Promise<{ eventsPerSecond: number; undelivered: number }> {
  const db = openPostgres(url, 2);
  try {
    const seen = new Set(receiver.ids).size;
    const now = new Date();
    const started = performance.now();
    await db.transaction(async (tx) => {
      for (let i = 0; i < BACKLOG_EVENTS; i += BACKLOG_BATCH) {
        const events = Array.from({ length: Math.min(BACKLOG_BATCH, BACKLOG_EVENTS - i) }, (_unused, j) => ({
          platformId,
          type: "CARD.STATUS_CHANGE" as const,
          data: { id: `Card:bench-${i + j}`, status: "ACTIVE", updatedAt: now.toISOString() },
          now,
        }));
        await enqueueEvents(tx, events);
      }
    });
    const deadline = Date.now() + DELIVERY_DEADLINE_MS;
    while (new Set(receiver.ids).size - seen < BACKLOG_EVENTS && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const seconds = (performance.now() - started) / 1000;
    const delivered = new Set(receiver.ids).size - seen;
    console.log(
      `webhooks: a backlog of ${BACKLOG_EVENTS} events drained by 2 processes in ${seconds.toFixed(1)} s = ${Math.round(delivered / seconds)}/s`,
    );
    return { eventsPerSecond: delivered / seconds, undelivered: BACKLOG_EVENTS - delivered };
  } finally {
    await db.close();
  }
}

/** How long the bench waits for the last deliveries; the whole bench has 10 minutes (issue 20). */
const DELIVERY_DEADLINE_MS = 120_000;

/**
 * Issue 4's delivery bench: two server processes on one PostgreSQL database, one loopback receiver
 * answering 200, `count` fundings through the API split across both; reports events delivered per
 * second until every committed event has reached the receiver. PGlite has one process: null.
 */
export async function webhooksBench(
  count = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2_000),
): Promise<WebhookFigures | null> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    console.log("webhooks: skipped on PGlite (one process only; set DATABASE_URL for two processes)");
    return null;
  }
  const scratch = await createScratchDatabase(adminUrl, "paysvc_bench_webhooks");
  const dataDir = await mkdtemp(join(tmpdir(), "paysvc-bench-webhooks-"));
  const receiver = await startIdReceiver((body) => (JSON.parse(body) as { id: string }).id);
  const processes: Paysvc[] = [];
  try {
    // The first start creates the sandbox platform and credentials.json; the second reuses them.
    processes.push(await startPaysvc(dataDir, scratch.url));
    processes.push(await startPaysvc(dataDir, scratch.url));
    const credentials = await sandboxCredentials(dataDir);
    const authorization = basicAuth(credentials);
    const json = { authorization, "content-type": "application/json" };
    const [first, second] = processes.map((p) => p.url) as [string, string];
    const patched = await fetch(`${first}/config`, {
      method: "PATCH",
      headers: json,
      body: JSON.stringify({ webhookEndpoint: receiver.url }),
    });
    if (patched.status !== 200) throw new Error(`PATCH /config: ${patched.status}`);
    const accounts = (
      await Promise.all([newUsdAccount(first, authorization), newUsdAccount(second, authorization)])
    ).map((a) => a.accountId);
    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    const eventCount = async () =>
      Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM webhook_events")).rows[0]?.n);
    const before = await eventCount();
    const deliveredBefore = new Set(receiver.ids).size;

    const started = performance.now();
    let next = 0;
    let failures = 0;
    await Promise.all(
      Array.from({ length: 16 }, async (_unused, worker) => {
        while (next < count) {
          next++;
          const base = worker % 2 === 0 ? first : second;
          const account = accounts[worker % 2];
          const res = await fetch(`${base}/sandbox/internal-accounts/${account}/fund`, {
            method: "POST",
            headers: json,
            body: JSON.stringify({ amount: 100 }),
          });
          await res.arrayBuffer();
          if (res.status !== 200) failures++;
        }
      }),
    );
    const produced = performance.now();
    const committed = (await eventCount()) - before;
    const deadline = Date.now() + DELIVERY_DEADLINE_MS;
    while (new Set(receiver.ids).size - deliveredBefore < committed && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    const unique = new Set(receiver.ids).size - deliveredBefore;
    const duplicates = receiver.ids.length - new Set(receiver.ids).size;
    await db.end();
    const undelivered = Math.max(0, committed - unique);
    console.log(
      `webhooks: ${unique} events delivered by 2 processes in ${seconds.toFixed(1)} s = ${Math.round(unique / seconds)}/s; duplicates ${duplicates}` +
        ` (${committed} committed by ${count} fundings in ${((produced - started) / 1000).toFixed(1)} s` +
        `${failures ? `, ${failures} failed requests` : ""}${undelivered ? `, ${undelivered} NOT delivered within ${DELIVERY_DEADLINE_MS / 1000} s` : ""})`,
    );
    const backlog = await drainBacklog(scratch.url, credentials.platformId, receiver);
    const allDuplicates = receiver.ids.length - new Set(receiver.ids).size;
    const allUndelivered = undelivered + backlog.undelivered;
    if (failures > 0 || allUndelivered > 0 || allDuplicates > 0) process.exitCode = 1;
    return {
      eventsPerSecond: backlog.eventsPerSecond,
      endToEndEventsPerSecond: unique / seconds,
      duplicates: allDuplicates,
      undelivered: allUndelivered,
    };
  } finally {
    await Promise.all(processes.map((p) => p.stop("SIGTERM")));
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
    await scratch.drop();
  }
}
