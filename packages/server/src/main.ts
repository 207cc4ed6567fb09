#!/usr/bin/env node
import { join, resolve } from "node:path";
import pino from "pino";
import { parseCardLimitsArgs, runCardLimitsCommand } from "./cli/card-limits.js";
import { parseDailyVolumeLimitArgs, runDailyVolumeLimitCommand } from "./cli/daily-volume-limit.js";
import { parseRotateWebhookKeyArgs } from "./cli/rotate-webhook-key.js";
import { runStatementCommand } from "./cli/statement.js";
import { parseSettings, type Settings } from "./config.js";
import { systemClock } from "./core/clock.js";
import { type DataDirLock, DataDirLockedError, tightenDataDir } from "./core/db/data-dir.js";
import type { Db } from "./core/db/db.js";
import { startPgliteMaintenance } from "./core/db/maintenance.js";
import { migrate } from "./core/db/migrate.js";
import { openDatabase } from "./core/db/open.js";
import type { Deps } from "./core/deps.js";
import { logRedactPaths } from "./core/http/logging.js";
import { API_VERSION } from "./core/http/version.js";
import { holdDataDir, runEmbeddedOperatorCommand } from "./operator/cli.js";
import { performOperatorCommand } from "./operator/commands.js";
import { ensureOperatorSecret, publishServerUrl } from "./operator/credential.js";
import { createPlatform } from "./platform/platforms.js";
import { ensureSandboxPlatform } from "./platform/sandbox-bootstrap.js";
import { DEFAULT_WEBHOOK_TIMEOUTS } from "./webhooks/sender.js";

/** Whether the database is the embedded one in a directory (which one process alone may hold). */
const embeddedOnDisk = (settings: Pick<Settings, "databaseUrl" | "memory">) =>
  !settings.databaseUrl && !settings.memory;

/** Opens the configured database; an embedded one on disk must already be held (holdDataDir). */
async function openConfiguredDatabase(
  settings: Pick<Settings, "databaseUrl" | "memory" | "dataDir">,
): Promise<Db> {
  if (settings.databaseUrl) return openDatabase({ kind: "postgres", url: settings.databaseUrl });
  if (settings.memory) return openDatabase({ kind: "pglite", dataDir: null });
  return openDatabase({ kind: "pglite", dataDir: resolve(settings.dataDir, "db") });
}

/** `start` and `migrate` on an embedded directory: held by this process, or a clear refusal. */
async function holdForServer(settings: Settings, logger: pino.Logger): Promise<DataDirLock | undefined> {
  if (!embeddedOnDisk(settings)) return undefined;
  try {
    return await holdDataDir(settings.dataDir, (count) =>
      logger.warn(
        { dataDir: resolve(settings.dataDir), count },
        "tightened data directory permissions to 0700/0600",
      ),
    );
  } catch (error) {
    if (error instanceof DataDirLockedError)
      throw new Error(`${error.message}; stop it first, or use another --data-dir`);
    throw error;
  }
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
  const lock = await holdForServer(settings, logger);
  const db = await openConfiguredDatabase(settings);
  const applied = await migrate(db);
  if (applied.length > 0) logger.info({ applied }, "migrations applied");
  // PGlite gives some files modes of its own (core/db/data-dir.ts): tighten them once it has written them.
  if (lock) await tightenDataDir(resolve(settings.dataDir));

  if (settings.command === "migrate") {
    process.stdout.write(`paysvc: ${applied.length} migration(s) applied\n`);
    await db.close();
    await lock?.release();
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
    outbound: { allowPrivateTargets: settings.allowPrivateTargets },
    ...(lock ? { operatorSecret: await ensureOperatorSecret(resolve(settings.dataDir)) } : {}),
  };
  // The server's modules load only for `start`: the operator commands above start in half the time.
  const [{ buildApp }, { JobRunner }, { jobHandlers }] = await Promise.all([
    import("./app.js"),
    import("./core/jobs/jobs.js"),
    import("./jobs.js"),
  ]);
  const app = await buildApp(deps);
  const credentialsFile = join(settings.dataDir, "credentials.json");
  const sandbox = settings.mode === "sandbox" ? await ensureSandboxPlatform(deps, credentialsFile) : null;
  const address = await app.listen({ port: settings.port, host: settings.host });
  const jobs = new JobRunner(deps, jobHandlers());
  jobs.start();
  const stopMaintenance = startPgliteMaintenance(db, logger);
  const base = address.replace("[::1]", "127.0.0.1");
  const url = `${base}/${API_VERSION}`;
  if (lock) await publishServerUrl(resolve(settings.dataDir), base);
  process.stdout.write(`paysvc ${settings.mode} listening on ${url}\n`);
  // The secret is printed once, when it is made; later starts name the token and where its secret is.
  if (sandbox?.created) {
    process.stdout.write(
      `API token id ${sandbox.credentials.clientId} secret ${sandbox.credentials.clientSecret}   (also written to ${credentialsFile}, mode 0600)\n`,
    );
  } else if (sandbox) {
    process.stdout.write(`API token id ${sandbox.credentials.clientId}   (secret in ${credentialsFile})\n`);
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
    if (lock) {
      await publishServerUrl(resolve(settings.dataDir), undefined);
      await lock.release();
    }
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
  } else if (settings.command === "create-platform") {
    process.exitCode = await runCreatePlatform(settings);
  } else {
    await run(settings);
  }
}

/** `paysvc create-platform`: an operator command, like card-limits. */
async function runCreatePlatform(settings: Readonly<Settings>): Promise<number> {
  const direct = async () => {
    const db = await openConfiguredDatabase(settings);
    try {
      await migrate(db);
      const created = await createPlatform(
        { db, clock: systemClock },
        { name: settings.platformName, environment: settings.environment },
      );
      process.stdout.write(`${JSON.stringify(created, null, 2)}\n`);
      return 0;
    } finally {
      await db.close();
    }
  };
  if (!embeddedOnDisk(settings)) return direct();
  const command = {
    kind: "create-platform",
    name: settings.platformName,
    environment: settings.environment,
  } as const;
  return runEmbeddedOperatorCommand("create-platform", settings.dataDir, command, direct, process);
}

/** Runs `work` on the database itself (PostgreSQL, or an embedded directory no server holds). */
async function onDatabase(
  target: { databaseUrl?: string | undefined; dataDir: string },
  work: (db: Db) => Promise<number>,
): Promise<number> {
  const db = await openConfiguredDatabase({ ...target, memory: false });
  try {
    await migrate(db);
    return await work(db);
  } finally {
    await db.close();
  }
}

/**
 * `paysvc card-limits`: an operator command (no API token). On PostgreSQL it writes the database; on an
 * embedded directory held by a running server it goes through that server's operator API.
 */
async function runCardLimits(argv: string[]): Promise<number> {
  const command = parseCardLimitsArgs(argv, process.env);
  const direct = () => onDatabase(command, (db) => runCardLimitsCommand({ db }, command, process));
  if (command.databaseUrl) return direct();
  const { platformId, maxLiveCards, maxLiveCardsPerCardholder } = command;
  const operation = {
    kind: "card-limits",
    platformId,
    maxLiveCards,
    ...(maxLiveCardsPerCardholder !== undefined ? { maxLiveCardsPerCardholder } : {}),
  } as const;
  return runEmbeddedOperatorCommand("card-limits", command.dataDir, operation, direct, process);
}

/** `paysvc rotate-webhook-key`: an operator command, like card-limits. */
async function runRotateWebhookKey(argv: string[]): Promise<number> {
  const command = parseRotateWebhookKeyArgs(argv, process.env);
  const operation = { kind: "rotate-webhook-key", platformId: command.platformId } as const;
  const direct = () =>
    onDatabase(command, async (db) => {
      try {
        const result = await performOperatorCommand({ db, clock: systemClock }, operation);
        process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        return 0;
      } catch (error) {
        process.stderr.write(`paysvc rotate-webhook-key: ${(error as Error).message}\n`);
        return 1;
      }
    });
  if (command.databaseUrl) return direct();
  return runEmbeddedOperatorCommand("rotate-webhook-key", command.dataDir, operation, direct, process);
}

/** `paysvc daily-volume-limit`: an operator command, like card-limits. */
async function runDailyVolumeLimit(argv: string[]): Promise<number> {
  const command = parseDailyVolumeLimitArgs(argv, process.env);
  const direct = () => onDatabase(command, (db) => runDailyVolumeLimitCommand({ db }, command, process));
  if (command.databaseUrl) return direct();
  const operation = {
    kind: "daily-volume-limit",
    platformId: command.platformId,
    dailyVolumeLimit: command.dailyVolumeLimit,
  } as const;
  return runEmbeddedOperatorCommand("daily-volume-limit", command.dataDir, operation, direct, process);
}

try {
  const argv = process.argv.slice(2);
  // card-limits parses its own flags (cli/card-limits.ts), so it is dispatched before parseSettings.
  if (argv[0] === "card-limits") {
    process.exitCode = await runCardLimits(argv.slice(1));
  } else if (argv[0] === "rotate-webhook-key") {
    process.exitCode = await runRotateWebhookKey(argv.slice(1));
  } else if (argv[0] === "daily-volume-limit") {
    process.exitCode = await runDailyVolumeLimit(argv.slice(1));
  } else {
    await runSettingsCommand(parseSettings(argv, process.env));
  }
} catch (error) {
  process.stderr.write(`paysvc: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
