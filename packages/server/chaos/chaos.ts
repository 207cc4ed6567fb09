import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { basicAuth, createScratchDatabase, sandboxCredentials, startIdReceiver } from "../bench/webhooks.js";
import type { Db } from "../src/core/db/db.js";
import { withEndUserTerms } from "../test/customers/end-user-terms.js";
import { checkDatabase, checkWindows, type DbCheck, endDeadLeases } from "./checks.js";
import { Cluster } from "./cluster.js";
import { must, rng, sleep } from "./http.js";
import { type Holder, Load } from "./load.js";

export interface ChaosOptions {
  /** A PostgreSQL server URL: the run creates (and drops) a fresh database on it. Unset: PGlite, one process. */
  adminUrl?: string;
  rounds: number;
  seed: number;
  /** How long each round's load runs (the kills fall inside it). */
  roundMs: number;
  workers: number;
  holders: number;
  log?: (line: string) => void;
  /** Node arguments that run paysvc; default tsx on the TypeScript entry (tests pass the compiled bin). */
  entry?: readonly string[];
  /** A migrated embedded-database directory to start from (PGlite), instead of migrating a new one. */
  dataDirTemplate?: string;
  /** A migrated PostgreSQL database to copy (with adminUrl), instead of migrating a new one. */
  databaseTemplate?: string;
}

export interface ChaosReport {
  database: "PostgreSQL" | "PGlite";
  processes: number;
  seed: number;
  rounds: number;
  kills: number;
  starts: number;
  requests: number;
  statuses: Record<string, number>;
  keys: number;
  lostResponses: number;
  retriedKeys: number;
  stuckKeys: number;
  /** Of the stuck keys, those whose first request had committed its effect before the kill. */
  stuckKeysWithEffect: number;
  accountsChecked: number;
  balanceChangesChecked: number;
  windowsChecked: number;
  eventsChecked: number;
  deliveries: number;
  duplicateDeliveries: number;
  deadLeasesEnded: number;
  violations: string[];
}

const SETTLEMENT_LAG_MS = 72 * 60 * 60 * 1000;

async function newHolder(base: string, authorization: string, i: number): Promise<Holder> {
  const customer = await must(
    base,
    authorization,
    "POST",
    "/customers",
    {
      customerType: "INDIVIDUAL",
      ...withEndUserTerms,
      fullName: `Chaos Holder ${i} X`,
    },
    201,
  );
  const accounts = await must(
    base,
    authorization,
    "GET",
    `/customers/internal-accounts?customerId=${customer.id}&currency=USD&type=INTERNAL_FIAT`,
    undefined,
    200,
  );
  const accountId = String((accounts.data as { id: string }[])[0]?.id);
  await must(
    base,
    authorization,
    "POST",
    `/sandbox/internal-accounts/${accountId}/fund`,
    { amount: 5_000_000 },
    200,
  );
  const card = await must(
    base,
    authorization,
    "POST",
    "/cards",
    {
      cardholderId: customer.id,
      form: "VIRTUAL",
      fundingSources: [accountId],
    },
    201,
  );
  const cardId = String(card.id);
  for (let i = 0; i < 200; i++) {
    const now = await must(base, authorization, "GET", `/cards/${cardId}`, undefined, 200);
    if (now.status === "ACTIVE") return { accountId, cardId };
    await sleep(100);
  }
  throw new Error(`card ${cardId} never became ACTIVE`);
}

/** Waits until the receiver holds every id (or the deadline passes); returns the ids still missing. */
async function drain(ids: string[], received: string[], timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = new Set(received);
    const missing = ids.filter((id) => !seen.has(id));
    if (missing.length === 0 || Date.now() > deadline) return missing;
    await sleep(100);
  }
}

/**
 * `npm run chaos` (issue 9 part 3): real `paysvc start` processes on one fresh database under mixed load
 * (fundings, transfers, card authorizations, clearings and returns, each with an Idempotency-Key and a
 * unique amount; webhook deliveries to a loopback receiver), SIGKILLed at random moments and restarted,
 * round after round. After each round the lost answers are retried with the same key, the processes are
 * stopped and the database checked (checks.ts), then restarted to deliver every committed event and to
 * check the statement windows through the API.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => {});
  const random = rng(options.seed);
  const scratch = options.adminUrl
    ? await createScratchDatabase(options.adminUrl, "paysvc_chaos", options.databaseTemplate)
    : undefined;
  const dataDir = await mkdtemp(join(tmpdir(), "paysvc-chaos-"));
  if (options.dataDirTemplate) await cp(options.dataDirTemplate, join(dataDir, "db"), { recursive: true });
  const receiver = await startIdReceiver((body) => String((JSON.parse(body) as { id: string }).id));
  const cluster = new Cluster(dataDir, scratch?.url, options.entry);
  let liveDb: Db | undefined;
  const violations: string[] = [];
  const report: ChaosReport = {
    database: scratch ? "PostgreSQL" : "PGlite",
    processes: cluster.size,
    seed: options.seed,
    rounds: 0,
    kills: 0,
    starts: 0,
    requests: 0,
    statuses: {},
    keys: 0,
    lostResponses: 0,
    retriedKeys: 0,
    stuckKeys: 0,
    stuckKeysWithEffect: 0,
    accountsChecked: 0,
    balanceChangesChecked: 0,
    windowsChecked: 0,
    eventsChecked: 0,
    deliveries: 0,
    duplicateDeliveries: 0,
    deadLeasesEnded: 0,
    violations,
  };
  try {
    await cluster.startAll();
    const credentials = await sandboxCredentials(dataDir);
    const authorization = basicAuth(credentials);
    const base = () => cluster.liveUrls()[0] as string;
    await must(
      base(),
      authorization,
      "PATCH",
      "/config",
      {
        webhookEndpoint: receiver.url,
        sandboxSkipVerificationPaperwork: true,
      },
      200,
    );
    const holders: Holder[] = [];
    for (let i = 0; i < options.holders; i++) holders.push(await newHolder(base(), authorization, i));
    const load = new Load(authorization, holders, random, () => cluster.liveUrls());
    if (cluster.databaseUrl) liveDb = await cluster.openDb();
    const lastClosing = new Map<string, number>();

    /** Stops every process, ends their leases, checks the quiet database, restarts, delivers every event. */
    const quietCheck = async (label: string) => {
      await cluster.stopAll();
      const received = new Set(receiver.ids);
      const db = await cluster.openDb();
      let check: DbCheck;
      try {
        report.deadLeasesEnded += await endDeadLeases(db);
        check = await checkDatabase(db, credentials.platformId, load.ops, received);
      } finally {
        await db.close();
      }
      violations.push(...check.violations.map((v) => `${label}: ${v}`));
      await cluster.startAll();
      const missing = await drain(check.committedEvents, receiver.ids, 60_000);
      for (const id of missing) violations.push(`${label}: committed event ${id} never reached the receiver`);
      return { check, owed: 0 };
    };

    /**
     * PostgreSQL: the same checks on a snapshot (REPEATABLE READ) while the processes run. An event not
     * delivered within 15 s must still have a PENDING delivery (a killed process's 60 s lease holds it);
     * the final quiet check proves it arrives.
     */
    const liveCheck = async (label: string) => {
      const db = liveDb as Db;
      const received = new Set(receiver.ids);
      const check = await db.transaction(
        (tx) => checkDatabase(tx, credentials.platformId, load.ops, received),
        { isolation: "repeatable read" },
      );
      violations.push(...check.violations.map((v) => `${label}: ${v}`));
      const missing = await drain(check.committedEvents, receiver.ids, 15_000);
      const pending = new Set(
        (
          await db.query<{ event_id: string }>(
            "SELECT event_id FROM webhook_deliveries WHERE state = 'PENDING' AND event_id = ANY($1)",
            [missing],
          )
        ).map((r) => r.event_id),
      );
      for (const id of missing)
        if (!pending.has(id))
          violations.push(`${label}: committed event ${id} was not delivered and is not pending`);
      return { check, owed: missing.length };
    };

    const boundaries = [
      String((await must(base(), authorization, "GET", "/sandbox/clock", undefined, 200)).now),
    ];
    let reported = 0;

    log(`set-up done: ${holders.length} cardholders`);
    for (let round = 1; round <= options.rounds; round++) {
      const running = load.run(options.workers);
      const started = Date.now();
      const restarts: Promise<unknown>[] = [];
      const kills = Array.from(
        { length: 1 + Math.floor(random() * 2) },
        () => random() * options.roundMs,
      ).sort((a, b) => a - b);
      for (const at of kills) {
        await sleep(Math.max(0, started + at - Date.now()));
        const victims =
          cluster.size === 1 || random() < 0.25
            ? [...Array(cluster.size).keys()]
            : [Math.floor(random() * 2)];
        await Promise.all(victims.map((i) => cluster.kill(i)));
        // Restarted in the background: the load goes on against whatever is up meanwhile.
        restarts.push(...victims.map((i) => cluster.start(i).catch((error: unknown) => error)));
      }
      await sleep(Math.max(0, started + options.roundMs - Date.now()));
      load.stop();
      await running;
      const failed = (await Promise.all(restarts)).find((r) => r instanceof Error);
      if (failed) throw failed;
      const loaded = Date.now();
      await cluster.startAll();
      await load.settle();
      const settled = Date.now();

      const { check, owed } = cluster.databaseUrl
        ? await liveCheck(`round ${round}`)
        : await quietCheck(`round ${round}`);
      const checked = Date.now();

      // The round's statement window ends here; windows are read through the API at the end, once the
      // sandbox clock is moved past the settlement lag (moving it now would expire the 24 h keys mid-run).
      boundaries.push(
        String((await must(base(), authorization, "GET", "/sandbox/clock", undefined, 200)).now),
      );

      report.rounds = round;
      report.accountsChecked += check.accounts;
      report.balanceChangesChecked = check.changes;
      log(
        `round ${round}: ${load.requests} requests, ${cluster.kills} kills, ${check.changes} balance changes, ` +
          `${check.committedEvents.length} events (${owed} still owed), ${load.stuck.length} stuck keys, ` +
          `${violations.length + load.violations.length} violations ` +
          `(ms: load ${loaded - started}, settle ${settled - loaded}, check ${checked - settled})`,
      );
      for (const v of [...violations, ...load.violations].slice(reported)) log(`  - ${v}`);
      reported = violations.length + load.violations.length;
    }
    // Last: every committed event of the whole run has reached the receiver (dead leases ended first).
    const final = await quietCheck("final");
    report.eventsChecked = final.check.committedEvents.length;
    report.balanceChangesChecked = final.check.changes;
    const last = boundaries[boundaries.length - 1] as string;
    const later = new Date(Date.parse(last) + SETTLEMENT_LAG_MS + 60_000).toISOString();
    await must(base(), authorization, "POST", "/sandbox/clock/advance", { to: later }, 200);
    for (let i = 1; i < boundaries.length; i++) {
      const windows = await checkWindows(
        base(),
        authorization,
        holders.map((h) => h.accountId),
        boundaries[i - 1] as string,
        boundaries[i] as string,
        lastClosing,
      );
      report.windowsChecked += windows.windows;
      violations.push(...windows.violations.map((v) => `round ${i} window: ${v}`));
    }
    violations.push(...load.violations);
    Object.assign(report, {
      kills: cluster.kills,
      starts: cluster.starts,
      requests: load.requests,
      statuses: load.statuses,
      keys: load.ops.length,
      lostResponses: load.lostResponses,
      retriedKeys: load.retriedKeys.size,
      stuckKeys: load.stuck.length,
      stuckKeysWithEffect: load.stuck.filter((op) => final.check.effects.get(op.key) === 1).length,
      deliveries: receiver.ids.length,
      duplicateDeliveries: receiver.ids.length - new Set(receiver.ids).size,
    });
    return report;
  } finally {
    await liveDb?.close();
    await cluster.killAll();
    await receiver.close();
    await scratch?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function formatReport(report: ChaosReport): string {
  const statuses = Object.entries(report.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}: ${n}`)
    .join(" · ");
  const lines = [
    `database          ${report.database}, ${report.processes} paysvc process(es), seed ${report.seed}`,
    `rounds            ${report.rounds}`,
    `kills (SIGKILL)   ${report.kills} (process starts ${report.starts})`,
    `requests          ${report.requests} for ${report.keys} idempotency keys (${statuses})`,
    `lost answers      ${report.lostResponses}; keys retried with the same key ${report.retriedKeys}; still "running" at the end ${report.stuckKeys} (${report.stuckKeysWithEffect} of them with their effect committed)`,
    `ledger            ${report.balanceChangesChecked} balance changes, ${report.accountsChecked} account checks, ${report.windowsChecked} statement windows`,
    `webhooks          ${report.eventsChecked} committed events checked, ${report.deliveries} deliveries (${report.duplicateDeliveries} duplicates), ${report.deadLeasesEnded} dead leases ended`,
    `violations        ${report.violations.length}`,
    ...report.violations.slice(0, 50).map((v) => `  - ${v}`),
  ];
  return lines.join("\n");
}
