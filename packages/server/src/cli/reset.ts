import { access, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { type DataDirLock, DataDirLockedError } from "../core/db/data-dir.js";
import { openDatabase } from "../core/db/open.js";
import { holdDataDir } from "../operator/cli.js";
import type { CommandIo } from "./api.js";
import { findServer } from "./server-file.js";

/** What `paysvc sandbox reset` needs. */
export interface SandboxResetCommand {
  dataDir: string;
  yes: boolean;
  env: NodeJS.ProcessEnv;
  /** Asks the question and resolves with the answer (a terminal prompt in the bin). */
  ask?: (question: string) => Promise<string>;
}

/** A terminal prompt on stdin/stderr (stdout stays the command's answer). */
export async function askOnTerminal(question: string): Promise<string> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await prompt.question(question);
  } finally {
    prompt.close();
  }
}

/** Why this data directory must not be emptied, or undefined. Holds no lock. */
async function refusal(command: SandboxResetCommand, dir: string): Promise<string | undefined> {
  if (command.env.DATABASE_URL)
    return "DATABASE_URL is set: reset empties an embedded sandbox only; on PostgreSQL drop and create the database";
  if (command.env.PAYSVC_MODE === "production") return "PAYSVC_MODE is production: only a sandbox is reset";
  const server = await findServer(dir);
  if (server.kind === "running")
    return `a paysvc server (pid ${server.pid}, ${server.url}) runs on ${dir}; stop it first`;
  return undefined;
}

/** Whether the embedded database holds a production platform (then it is not a sandbox to empty). */
async function holdsProductionPlatform(dbDir: string): Promise<boolean> {
  const db = await openDatabase({ kind: "pglite", dataDir: dbDir });
  try {
    const [row] = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM platforms WHERE environment = 'PRODUCTION'",
    );
    return (row?.n ?? 0) > 0;
  } catch {
    // A database without the platforms table has nothing to protect.
    return false;
  } finally {
    await db.close();
  }
}

/**
 * `paysvc sandbox reset`: removes the data directory's embedded database and credentials.json, so the next
 * start creates a new sandbox platform and API token. It holds the directory's lock while it works, so no
 * server can start on it meanwhile. Exit 0 reset (or nothing to reset); 1 refused or not confirmed.
 */
export async function runSandboxReset(command: SandboxResetCommand, io: CommandIo): Promise<number> {
  const dir = resolve(command.dataDir);
  const dbDir = join(dir, "db");
  const say = (line: string) => io.stderr.write(`paysvc sandbox reset: ${line}\n`);
  const why = await refusal(command, dir);
  if (why) {
    say(`refused: ${why}`);
    return 1;
  }
  const exists = await access(dbDir).then(
    () => true,
    () => false,
  );
  if (!exists) {
    say(`nothing to reset: ${dbDir} does not exist`);
    return 0;
  }
  let lock: DataDirLock;
  try {
    lock = await holdDataDir(dir, () => {});
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    say(`refused: ${error.message}; stop it first`);
    return 1;
  }
  try {
    if (await holdsProductionPlatform(dbDir)) {
      say(`refused: ${dbDir} holds a production platform; only a sandbox is reset`);
      return 1;
    }
    if (!command.yes) {
      if (!command.ask) {
        say("refused: not confirmed; pass --yes to reset without a question");
        return 1;
      }
      const answer = await command.ask(
        `Remove the sandbox in ${dbDir} (every customer, account, card, transaction and API token)? [y/N] `,
      );
      if (!/^y(es)?$/i.test(answer.trim())) {
        say("not reset");
        return 1;
      }
    }
    await rm(dbDir, { recursive: true, force: true });
    await rm(join(dir, "credentials.json"), { force: true });
    io.stdout.write(
      `paysvc sandbox reset: removed ${dbDir} and credentials.json; the next start creates a new sandbox platform and API token\n`,
    );
    return 0;
  } finally {
    await lock.release();
  }
}
