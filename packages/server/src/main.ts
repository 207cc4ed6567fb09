#!/usr/bin/env node
import { join, resolve } from "node:path";
import pino from "pino";
import { apiTarget } from "./cli/api.js";
import { embeddedOnDisk, openAndMigrate, progressToStderr } from "./cli/database.js";
import { runListenCommand } from "./cli/listen.js";
import { runLogsTailCommand } from "./cli/logs.js";
import {
  runCardLimits,
  runCreatePlatform,
  runDailyVolumeLimit,
  runRotateMasterKey,
  runRotateWebhookKey,
} from "./cli/operator-commands.js";
import { assertPortFree, PortInUseError, portInUseMessage } from "./cli/port.js";
import { CommandLineExit, parseCommandLine } from "./cli/program.js";
import { askOnTerminal, runSandboxReset } from "./cli/reset.js";
import { runSeedCommand } from "./cli/seed.js";
import { removeServerFile, writeServerFile } from "./cli/server-file.js";
import { runStatementCommand } from "./cli/statement.js";
import { runTriggerCommand } from "./cli/trigger.js";
import { type Settings, settingsFrom } from "./config.js";
import { systemClock } from "./core/clock.js";
import { type DataDirLock, DataDirLockedError, tightenDataDir } from "./core/db/data-dir.js";
import { startPgliteMaintenance } from "./core/db/maintenance.js";
import type { Deps } from "./core/deps.js";
import { logRedactPaths } from "./core/http/logging.js";
import { API_VERSION } from "./core/http/version.js";
import { sealSecretsAtStart, secretsForDatabase } from "./core/secrets/load.js";
import { masterKeySource } from "./core/secrets/master-key.js";
import { noSecrets, useProcessSecrets } from "./core/secrets/process-box.js";
import { holdDataDir } from "./operator/cli.js";
import { ensureOperatorSecret, publishServerUrl } from "./operator/credential.js";
import { ensureSandboxPlatform } from "./platform-config/sandbox-bootstrap.js";
import { DEFAULT_WEBHOOK_TIMEOUTS } from "./webhooks/sender.js";

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
  // A taken port is refused before the data directory is created, locked or written.
  if (keySource) await assertPortFree(settings.host, settings.port, settings.dataDir);
  const lock = await holdForServer(settings, logger);
  const { db, applied } = await openAndMigrate(settings, progressToStderr);
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
  // Off unless an operator gives scrapers a token: then every request is measured (core/http/metrics.ts).
  if (settings.metricsToken) {
    const { createMetrics } = await import("./core/metrics/metrics.js");
    deps.metrics = createMetrics(db, settings.metricsToken);
  }
  const app = await buildApp(deps);
  const credentialsFile = join(settings.dataDir, "credentials.json");
  const sandbox = settings.mode === "sandbox" ? await ensureSandboxPlatform(deps, credentialsFile) : null;
  const address = await listen(app, settings);
  const jobs = new JobRunner(deps, jobHandlers());
  jobs.start();
  const stopMaintenance = startPgliteMaintenance(db, logger);
  const base = address.replace("[::1]", "127.0.0.1");
  const url = `${base}/${API_VERSION}`;
  if (lock) await publishServerUrl(resolve(settings.dataDir), base);
  await announce(settings, url, logger);
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
    await removeServerFile(settings.dataDir).catch(() => {});
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

/** The server's address: written for commands to find (cli/server-file.ts); a failure is only a warning. */
async function announce(settings: Settings, url: string, logger: pino.Logger): Promise<void> {
  try {
    await writeServerFile(settings.dataDir, {
      url,
      mode: settings.mode,
      startedAt: new Date().toISOString(),
    });
  } catch (error) {
    logger.warn(
      { err: error, dataDir: settings.dataDir },
      "could not write server.json: commands will not find this server",
    );
  }
}

/** Listens, or says in one line that the port is taken (the check before start can lose a race). */
async function listen(
  app: { listen(options: { port: number; host: string }): Promise<string> },
  settings: Settings,
): Promise<string> {
  try {
    return await app.listen({ port: settings.port, host: settings.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EADDRINUSE" && code !== "EACCES") throw error;
    throw new PortInUseError(await portInUseMessage(settings.host, settings.port, settings.dataDir, code));
  }
}

/** Resolves at the first SIGINT or SIGTERM: how a command that runs until stopped learns it should stop. */
const untilSignal = () =>
  new Promise((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });

const text = (value: string | boolean | undefined) => (typeof value === "string" ? value : undefined);

/** Runs the parsed command; resolves with the exit code. */
async function runCommand(argv: readonly string[]): Promise<number> {
  let line: ReturnType<typeof parseCommandLine>;
  try {
    line = parseCommandLine(argv, process);
  } catch (error) {
    // Help or the version was printed (0), or the usage error with the usage (1): nothing else to say.
    if (error instanceof CommandLineExit) return error.exitCode;
    throw error;
  }
  switch (line.name) {
    case "card-limits":
      return runCardLimits(line.args);
    case "daily-volume-limit":
      return runDailyVolumeLimit(line.args);
    case "rotate-webhook-key":
      return runRotateWebhookKey(line.args);
    case "trigger":
      return runTriggerCommand(
        { eventType: line.operands[0] ?? "", ...apiTarget(line.options, process.env) },
        process,
      );
    case "listen": {
      const forwardTo = String(line.options.forwardTo);
      return runListenCommand(
        { forwardTo, stopped: untilSignal(), ...apiTarget(line.options, process.env) },
        process,
      );
    }
    case "seed":
      return runSeedCommand(
        { json: line.options.json === true, ...apiTarget(line.options, process.env) },
        process,
      );
    case "logs tail": {
      const { status, method, path } = line.options;
      const filters = { status: text(status), method: text(method), path: text(path) };
      const target = apiTarget(line.options, process.env);
      return runLogsTailCommand(
        { ...filters, json: line.options.json === true, stopped: untilSignal(), ...target },
        process,
      );
    }
    case "sandbox reset": {
      const { dataDir } = apiTarget(line.options, process.env);
      const ask = process.stdin.isTTY ? askOnTerminal : undefined;
      const yes = line.options.yes === true;
      return runSandboxReset({ dataDir, yes, env: process.env, ...(ask ? { ask } : {}) }, process);
    }
    default:
      break;
  }
  const settings = settingsFrom(line, process.env);
  if (settings.command === "statement") {
    // An API client: it opens no database and starts no server.
    if (!settings.statement) throw new Error("invalid configuration: statement options missing");
    // --no-wait: a month not closed yet is answered at once with when to retry.
    const noWait = line.options.wait === false ? { maxWaitMs: 0 } : {};
    return runStatementCommand({ ...settings.statement, dataDir: settings.dataDir, ...noWait }, process);
  }
  if (settings.command === "create-platform") return runCreatePlatform(settings);
  if (settings.command === "rotate-master-key") return runRotateMasterKey(settings);
  await run(settings);
  return 0;
}

try {
  // Until a command loads the master key, nothing seals or opens: never under a throwaway key.
  useProcessSecrets(noSecrets("this paysvc command loaded no master key"));
  process.exitCode = await runCommand(process.argv.slice(2));
} catch (error) {
  // One line, no stack: every failure a user can cause is an Error whose message says what to do.
  process.stderr.write(`paysvc: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
