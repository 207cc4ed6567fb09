import { resolve } from "node:path";
import { systemClock } from "../core/clock.js";
import { type DataDirLock, DataDirLockedError, tightenDataDir } from "../core/db/data-dir.js";
import type { Db } from "../core/db/db.js";
import { secretsForDatabase } from "../core/secrets/load.js";
import { type MasterKeySettings, masterKeySource } from "../core/secrets/master-key.js";
import { useProcessSecrets } from "../core/secrets/process-box.js";
import { rotateMasterKey } from "../core/secrets/rotate.js";
import type { SecretBox } from "../core/secrets/secret-box.js";
import { holdDataDir, runEmbeddedOperatorCommand } from "../operator/cli.js";
import { performOperatorCommand } from "../operator/commands.js";
import { createPlatform } from "../platform-config/platforms.js";
import { parseCardLimitsArgs, runCardLimitsCommand } from "./card-limits.js";
import { parseDailyVolumeLimitArgs, runDailyVolumeLimitCommand } from "./daily-volume-limit.js";
import { type DatabaseSettings, embeddedOnDisk, openAndMigrate } from "./database.js";
import { parseRotateWebhookKeyArgs } from "./rotate-webhook-key.js";

/** Runs `work` on the migrated database itself (PostgreSQL, or an embedded directory this process holds). */
/** What the operator commands read of the settings (config.ts's Settings; cli/ does not import the root). */
type OperatorSettings = DatabaseSettings &
  MasterKeySettings & { platformName: string; environment: "SANDBOX" | "PRODUCTION" };

async function onDatabase(target: DatabaseSettings, work: (db: Db) => Promise<number>): Promise<number> {
  const { db } = await openAndMigrate(target);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
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

/** `paysvc create-platform`: an operator command, like card-limits. */
export async function runCreatePlatform(settings: Readonly<OperatorSettings>): Promise<number> {
  const direct = () =>
    onDatabase(settings, async (db) => {
      const secrets = await directSecrets(db, settings);
      const created = await createPlatform(
        { db, clock: systemClock, secrets },
        { name: settings.platformName, environment: settings.environment },
      );
      process.stdout.write(`${JSON.stringify(created, null, 2)}\n`);
      return 0;
    });
  if (!embeddedOnDisk(settings)) return direct();
  const command = {
    kind: "create-platform",
    name: settings.platformName,
    environment: settings.environment,
  } as const;
  return runEmbeddedOperatorCommand("create-platform", settings.dataDir, command, direct, process);
}

/**
 * `paysvc rotate-master-key` (core/secrets/rotate.ts): every sealed secret sealed again under the new
 * master key. On an embedded directory it holds the directory, so it refuses while a server runs there:
 * that server keeps the old key in memory. On PostgreSQL it runs on the database directly.
 */
export async function runRotateMasterKey(settings: Readonly<OperatorSettings>): Promise<number> {
  const source = await masterKeySource(process.env, settings);
  const direct = () =>
    onDatabase(settings, async (db) => {
      const { keyId, resealed } = await rotateMasterKey(db, source);
      const counts = Object.entries(resealed).map(([label, n]) => `${label}: ${n}`);
      const total = Object.values(resealed).reduce((sum, n) => sum + n, 0);
      process.stdout.write(
        `paysvc: sealed ${total} secret(s) again under master key ${keyId} (${counts.join(", ")}); every sealed secret is under it now\n`,
      );
      return 0;
    });
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

/**
 * `paysvc card-limits`: an operator command (no API token). On PostgreSQL it writes the database; on an
 * embedded directory held by a running server it goes through that server's operator API.
 */
export async function runCardLimits(argv: readonly string[]): Promise<number> {
  const command = parseCardLimitsArgs([...argv], process.env);
  const target = { ...command, memory: false };
  const direct = () => onDatabase(target, (db) => runCardLimitsCommand({ db }, command, process));
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
export async function runRotateWebhookKey(argv: readonly string[]): Promise<number> {
  const command = parseRotateWebhookKeyArgs([...argv], process.env);
  const operation = { kind: "rotate-webhook-key", platformId: command.platformId } as const;
  const direct = () =>
    onDatabase({ ...command, memory: false }, async (db) => {
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
export async function runDailyVolumeLimit(argv: readonly string[]): Promise<number> {
  const command = parseDailyVolumeLimitArgs([...argv], process.env);
  const target = { ...command, memory: false };
  const direct = () => onDatabase(target, (db) => runDailyVolumeLimitCommand({ db }, command, process));
  if (command.databaseUrl) return direct();
  const operation = {
    kind: "daily-volume-limit",
    platformId: command.platformId,
    dailyVolumeLimit: command.dailyVolumeLimit,
  } as const;
  return runEmbeddedOperatorCommand("daily-volume-limit", command.dataDir, operation, direct, process);
}
