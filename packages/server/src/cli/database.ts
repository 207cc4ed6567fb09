import { access } from "node:fs/promises";
import { resolve } from "node:path";
import type { Db } from "../core/db/db.js";
import { loadMigrations, migrate } from "../core/db/migrate.js";
import { openDatabase } from "../core/db/open.js";

/** Progress on long work: `paysvc: …` lines on stderr, so stdout stays each command's answer. */
export const progressToStderr = (line: string) => void process.stderr.write(`paysvc: ${line}\n`);

/** Where a command's database is: PostgreSQL at a URL, PGlite in a directory, or PGlite in memory. */
export interface DatabaseSettings {
  databaseUrl?: string | undefined;
  memory: boolean;
  dataDir: string;
}

/** Whether the database is the embedded one in a directory (which one process alone may hold). */
export const embeddedOnDisk = (settings: DatabaseSettings) => !settings.databaseUrl && !settings.memory;

/** A database that cannot be opened, said in one line that names the server (never the password). */
export class DatabaseUnavailableError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = "DatabaseUnavailableError";
  }
}

// Connection failures by Node error code, and PostgreSQL's own refusals by SQLSTATE (rule 6).
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused; is PostgreSQL running there?",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be looked up",
  ETIMEDOUT: "no answer (timed out)",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ECONNRESET: "the connection was reset",
};
const SQLSTATE_REASONS: Record<string, string> = {
  "28P01": "the password was refused",
  "28000": "the role was refused (it does not exist or may not log in)",
  "3D000": "the database does not exist (createdb it first)",
  "53300": "too many connections",
  "57P03": "the server is starting up or shutting down",
};

/** `user@host:port/database` of a PostgreSQL URL: enough to recognise it, without the password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || parsed.searchParams.get("host") || "localhost";
    const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : "";
    return `${user}${host}:${parsed.port || "5432"}${parsed.pathname}`;
  } catch {
    return "(an unparsable URL)";
  }
}

function codeOf(error: unknown): string | undefined {
  for (let e = error; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    // pg reports a failed connection to several addresses (localhost: ::1 and 127.0.0.1) as one of these.
    const [first] = (e as { errors?: unknown[] }).errors ?? [];
    if (first) return codeOf(first);
  }
  return undefined;
}

/**
 * Opens the command's database and checks that it answers, so a wrong DATABASE_URL fails here with one
 * line naming the host, not later with a driver's stack. An embedded database on disk must already be
 * held (holdDataDir); `onCreate` is told before PGlite initialises a new directory, which takes a while.
 */
export async function openCommandDatabase(
  settings: DatabaseSettings,
  onCreate: (dir: string) => void = () => {},
): Promise<Db> {
  if (!settings.databaseUrl) {
    if (settings.memory) return openDatabase({ kind: "pglite", dataDir: null });
    const dir = resolve(settings.dataDir, "db");
    const exists = await access(resolve(dir, "PG_VERSION")).then(
      () => true,
      () => false,
    );
    if (!exists) onCreate(dir);
    return openDatabase({ kind: "pglite", dataDir: dir });
  }
  const where = describeDatabaseUrl(settings.databaseUrl);
  const db = await openDatabase({ kind: "postgres", url: settings.databaseUrl });
  try {
    await db.query("SELECT 1");
    return db;
  } catch (error) {
    await db.close().catch(() => {});
    const code = codeOf(error);
    const reason =
      (code && (NETWORK_REASONS[code] ?? SQLSTATE_REASONS[code])) ||
      (error instanceof Error ? error.message : String(error));
    throw new DatabaseUnavailableError(`cannot use PostgreSQL at ${where} (DATABASE_URL): ${reason}`, {
      cause: error,
    });
  }
}

async function pendingMigrations(db: Db, names: string[]): Promise<number> {
  const [table] = await db.query<{ present: boolean }>(
    "SELECT to_regclass('paysvc_migrations') IS NOT NULL AS present",
  );
  if (!table?.present) return names.length;
  const done = new Set(
    (await db.query<{ name: string }>("SELECT name FROM paysvc_migrations")).map((r) => r.name),
  );
  return names.filter((name) => !done.has(name)).length;
}

/**
 * Opens the command's database (openCommandDatabase) and applies pending migrations, saying so on
 * `progress` when it creates an embedded database or has migrations to apply: a first start is the
 * longest wait a new user meets.
 */
export async function openAndMigrate(
  settings: DatabaseSettings,
  progress: (line: string) => void = progressToStderr,
): Promise<{ db: Db; applied: string[] }> {
  const db = await openCommandDatabase(settings, (dir) =>
    progress(`creating the embedded database in ${dir} (first start on this data directory)`),
  );
  try {
    const migrations = await loadMigrations();
    const pending = await pendingMigrations(
      db,
      migrations.map((m) => m.name),
    );
    if (pending > 0) progress(`applying ${pending} database migration(s)`);
    return { db, applied: await migrate(db, migrations) };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}
