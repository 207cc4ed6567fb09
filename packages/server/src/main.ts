#!/usr/bin/env node
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import pino from "pino";
import { parseCardLimitsArgs, runCardLimitsCommand } from "./cli/card-limits.js";
import { parseDailyVolumeLimitArgs, runDailyVolumeLimitCommand } from "./cli/daily-volume-limit.js";
import { runStatementCommand } from "./cli/statement.js";
import { parseSettings, type Settings } from "./config.js";
import { systemClock } from "./core/clock.js";
import type { Db } from "./core/db/db.js";
import { startPgliteMaintenance } from "./core/db/maintenance.js";
import { migrate } from "./core/db/migrate.js";
import { openDatabase } from "./core/db/open.js";
import type { Deps } from "./core/deps.js";
import { logRedactPaths } from "./core/http/logging.js";
import { API_VERSION } from "./core/http/version.js";
import { createPlatform } from "./platform/platforms.js";
import { ensureSandboxPlatform } from "./platform/sandbox-bootstrap.js";
import { DEFAULT_WEBHOOK_TIMEOUTS } from "./webhooks/sender.js";

async function openConfiguredDatabase(
  settings: Pick<Settings, "databaseUrl" | "memory" | "dataDir">,
): Promise<Db> {
  if (settings.databaseUrl) return openDatabase({ kind: "postgres", url: settings.databaseUrl });
  if (settings.memory) return openDatabase({ kind: "pglite", dataDir: null });
  const dataDir = resolve(settings.dataDir, "db");
  await mkdir(dataDir, { recursive: true });
  return openDatabase({ kind: "pglite", dataDir });
}

async function run(settings: Settings): Promise<void> {
  const logger = pino({
    level: settings.logLevel,
    redact: { paths: logRedactPaths, censor: "[redacted]" },
    // Pretty output for a person at a terminal; JSON lines for everything else.
    ...(process.stdout.isTTY
      ? { transport: { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss" } } }
      : {}),
  });
  const db = await openConfiguredDatabase(settings);
  const applied = await migrate(db);
  if (applied.length > 0) logger.info({ applied }, "migrations applied");

  if (settings.command === "migrate") {
    process.stdout.write(`paysvc: ${applied.length} migration(s) applied\n`);
    await db.close();
    return;
  }
  if (settings.command === "create-platform") {
    const created = await createPlatform(
      { db, clock: systemClock },
      { name: settings.platformName, environment: settings.environment },
    );
    process.stdout.write(`${JSON.stringify(created, null, 2)}\n`);
    await db.close();
    return;
  }

  const deps: Deps = {
    db,
    clock: systemClock,
    logger,
    mode: settings.mode,
    settlementLagMs: settings.settlementLagHours * 60 * 60 * 1000,
    webhookTimeouts: DEFAULT_WEBHOOK_TIMEOUTS,
    walletVerificationThreshold: settings.walletVerificationThreshold,
  };
  // The server's modules load only for `start`: the operator commands above start in half the time.
  const [{ buildApp }, { JobRunner }, { jobHandlers }] = await Promise.all([
    import("./app.js"),
    import("./core/jobs/jobs.js"),
    import("./jobs.js"),
  ]);
  const app = await buildApp(deps);
  const credentials =
    settings.mode === "sandbox"
      ? await ensureSandboxPlatform(deps, join(settings.dataDir, "credentials.json"))
      : null;
  const address = await app.listen({ port: settings.port, host: settings.host });
  const jobs = new JobRunner(deps, jobHandlers());
  jobs.start();
  const stopMaintenance = startPgliteMaintenance(db, logger);
  const url = `${address.replace("[::1]", "127.0.0.1")}/${API_VERSION}`;
  process.stdout.write(`paysvc ${settings.mode} listening on ${url}\n`);
  if (credentials) {
    process.stdout.write(
      `API token id ${credentials.clientId} secret ${credentials.clientSecret}   (also written to ${join(settings.dataDir, "credentials.json")}, mode 0600)\n`,
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "draining in-flight requests");
    await app.close();
    await jobs.stop();
    stopMaintenance();
    await db.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

async function runSettingsCommand(settings: Readonly<Settings>): Promise<void> {
  // The statement command is an API client: it opens no database and starts no server.
  if (settings.command === "statement") {
    if (!settings.statement) throw new Error("invalid configuration: statement options missing");
    process.exitCode = await runStatementCommand(
      { ...settings.statement, dataDir: settings.dataDir },
      process,
    );
  } else {
    await run(settings);
  }
}

/** `paysvc card-limits`: an operator command on the database itself (no server, no API token). */
async function runCardLimits(argv: string[]): Promise<number> {
  const command = parseCardLimitsArgs(argv, process.env);
  const db = await openConfiguredDatabase({ ...command, memory: false });
  try {
    await migrate(db);
    return await runCardLimitsCommand({ db }, command, process);
  } finally {
    await db.close();
  }
}

/** `paysvc daily-volume-limit`: an operator command on the database itself, like card-limits. */
async function runDailyVolumeLimit(argv: string[]): Promise<number> {
  const command = parseDailyVolumeLimitArgs(argv, process.env);
  const db = await openConfiguredDatabase({ ...command, memory: false });
  try {
    await migrate(db);
    return await runDailyVolumeLimitCommand({ db }, command, process);
  } finally {
    await db.close();
  }
}

try {
  const argv = process.argv.slice(2);
  // card-limits parses its own flags (cli/card-limits.ts), so it is dispatched before parseSettings.
  if (argv[0] === "card-limits") {
    process.exitCode = await runCardLimits(argv.slice(1));
  } else if (argv[0] === "daily-volume-limit") {
    process.exitCode = await runDailyVolumeLimit(argv.slice(1));
  } else {
    await runSettingsCommand(parseSettings(argv, process.env));
  }
} catch (error) {
  process.stderr.write(`paysvc: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
