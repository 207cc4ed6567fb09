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
import { sealSecretsAtStart, secretsForDatabase } from "./core/secrets/load.js";
import { type MasterKeySettings, masterKeySource } from "./core/secrets/master-key.js";
import { noSecrets, useProcessSecrets } from "./core/secrets/process-box.js";
import { rotateMasterKey } from "./core/secrets/rotate.js";
import type { SecretBox } from "./core/secrets/secret-box.js";
import { holdDataDir, runEmbeddedOperatorCommand } from "./operator/cli.js";
import { performOperatorCommand } from "./operator/commands.js";
import { ensureOperatorSecret, publishServerUrl } from "./operator/credential.js";
import { createPlatform } from "./platform-config/platforms.js";
import { ensureSandboxPlatform } from "./platform-config/sandbox-bootstrap.js";
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
  // A production start without a master key stops here, before it locks, opens or migrates anything.
  const keySource = settings.command === "start" ? await masterKeySource(process.env, settings) : undefined;
  const lock = await holdForServer(settings, logger);
  const db = await openConfiguredDatabase(settings);
  const applied = await migrate(db);
  if (applied.length > 0) logger.info({ applied }, "migrations applied");
  // PGlite gives some files modes of its own (core/db/data-dir.ts): tighten them once it has written them.
  if (lock) await tightenDataDir(resolve(settings.dataDir));

  if (settings.command === "migrate" || !keySource) {
    process.stdout.write(`paysvc: ${applied.length} migration(s) applied\n`);
    await db.close();
    await lock?.release();
    return;
  }

  const { box: secrets, createdKeyFile } = await secretsForDatabase(db, keySource);
  if (createdKeyFile)
    logger.info(
      { file: createdKeyFile },
      "created the sandbox master key (0600); back it up apart from the database: without it the wallet seeds and private keys there cannot be opened",
    );
  useProcessSecrets(secrets);
  const sealed = await sealSecretsAtStart(db, secrets);
  if (sealed > 0) logger.info({ sealed }, "sealed secrets that were stored in clear");

  const deps: Deps = {
    db,
    clock: systemClock,
    logger,
    mode: settings.mode,
    settlementLagMs: settings.settlementLagHours * 60 * 60 * 1000,
    webhookTimeouts: DEFAULT_WEBHOOK_TIMEOUTS,
    walletVerificationThreshold: settings.walletVerificationThreshold,
    outbound: { allowPrivateTargets: settings.allowPrivateTargets },
    ...(settings.publicUrl ? { publicUrl: settings.publicUrl } : {}),
    ...(settings.umaDomains ? { umaDomains: settings.umaDomains } : {}),
    ...(lock ? { operatorSecret: await ensureOperatorSecret(resolve(settings.dataDir)) } : {}),
    secrets,
  };
  // The server's modules load only for `start`: the operator commands above start in half the time.
  const [{ buildApp }, { JobRunner }, { jobHandlers }, { signedRetryPerformers }] = await Promise.all([
    import("./app.js"),
    import("./core/jobs/jobs.js"),
    import("./jobs.js"),
    import("./signed-retry-performers.js"),
  ]);
  deps.signedRetryPerformers = signedRetryPerformers;
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
  } else if (settings.command === "rotate-master-key") {
    process.exitCode = await runRotateMasterKey(settings);
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
      const secrets = await directSecrets(db, settings);
      const created = await createPlatform(
        { db, clock: systemClock, secrets },
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

/**
 * The master key for an operator command that writes the database itself, installed for the code that
 * takes no Deps (core/secrets/process-box.ts); refused if it cannot open what the database holds.
 */
async function directSecrets(db: Db, settings: MasterKeySettings): Promise<SecretBox> {
  const { box } = await secretsForDatabase(db, await masterKeySource(process.env, settings));
  useProcessSecrets(box);
  return box;
}

/** The mode of a command that does not parse the settings (PAYSVC_MODE): which master key it may use. */
const envMode = (): MasterKeySettings["mode"] =>
  process.env.PAYSVC_MODE === "production" ? "production" : "sandbox";

/**
 * `paysvc rotate-master-key` (core/secrets/rotate.ts): every sealed secret sealed again under the new
 * master key. On an embedded directory it holds the directory, so it refuses while a server runs there:
 * that server keeps the old key in memory. On PostgreSQL it runs on the database directly.
 */
async function runRotateMasterKey(settings: Readonly<Settings>): Promise<number> {
  const source = await masterKeySource(process.env, settings);
  const direct = async () => {
    const db = await openConfiguredDatabase(settings);
    try {
      await migrate(db);
      const { keyId, resealed } = await rotateMasterKey(db, source);
      const counts = Object.entries(resealed).map(([label, n]) => `${label}: ${n}`);
      const total = Object.values(resealed).reduce((sum, n) => sum + n, 0);
      process.stdout.write(
        `paysvc: sealed ${total} secret(s) again under master key ${keyId} (${counts.join(", ")}); every sealed secret is under it now\n`,
      );
      return 0;
    } finally {
      await db.close();
    }
  };
  if (!embeddedOnDisk(settings)) return direct();
  let lock: DataDirLock;
  try {
    lock = await holdDataDir(settings.dataDir, () => {});
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    process.stderr.write(
      `paysvc rotate-master-key: ${error.message}; stop it first, since a running server keeps the master key in memory: nothing changed\n`,
    );
    return 1;
  }
  try {
    return await direct();
  } finally {
    await tightenDataDir(resolve(settings.dataDir));
    await lock.release();
  }
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
      await directSecrets(db, { mode: envMode(), memory: false, dataDir: command.dataDir });
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
  // Until a command loads the master key, nothing seals or opens: never under a throwaway key.
  useProcessSecrets(noSecrets("this paysvc command loaded no master key"));
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
