import { resolve } from "node:path";
import {
  createPrivateDataDir,
  type DataDirLock,
  DataDirLockedError,
  lockDataDir,
  tightenDataDir,
} from "../core/db/data-dir.js";
import type { OperatorCommand } from "./commands.js";
import { readOperatorFile } from "./credential.js";
import { OperatorServerUnreachable, sendOperatorCommand } from "./remote.js";

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/**
 * Holds the embedded database's directory for this process and makes it private (core/db/data-dir.ts).
 * `onTightened` reports a directory whose modes were looser; losing the lock later stops the process.
 */
export async function holdDataDir(
  dataDir: string,
  onTightened: (count: number) => void,
): Promise<DataDirLock> {
  const dir = resolve(dataDir);
  await createPrivateDataDir(dir);
  const lock = await lockDataDir(dir, (error) => {
    process.stderr.write(
      `paysvc: lost the lock on ${dir} (${error.message}); stopping so no write is lost\n`,
    );
    process.exit(1);
  });
  const tightened = await tightenDataDir(dir);
  if (tightened > 0) onTightened(tightened);
  return lock;
}

/**
 * An operator command on an embedded database: run `direct` while holding the data directory, or, when
 * a running server holds it, send the command to that server's operator API. A locked directory whose
 * server cannot be reached changes nothing and says so.
 */
export async function runEmbeddedOperatorCommand(
  name: string,
  dataDir: string,
  command: OperatorCommand,
  direct: () => Promise<number>,
  io: CliIo,
): Promise<number> {
  let lock: DataDirLock;
  try {
    // Tightened silently: the server's start logs a loose directory; a command's output stays its answer.
    lock = await holdDataDir(dataDir, () => {});
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    return viaRunningServer(name, error, command, io);
  }
  try {
    return await direct();
  } finally {
    await tightenDataDir(resolve(dataDir));
    await lock.release();
  }
}

async function viaRunningServer(
  name: string,
  locked: DataDirLockedError,
  command: OperatorCommand,
  io: CliIo,
): Promise<number> {
  const file = await readOperatorFile(locked.dataDir);
  if (!file?.url) {
    io.stderr.write(
      `paysvc ${name}: ${locked.message}, which publishes no server address: nothing changed\n`,
    );
    return 1;
  }
  try {
    const answer = await sendOperatorCommand({ secret: file.secret, url: file.url }, command);
    if (answer.status >= 400) {
      io.stderr.write(`paysvc ${name}: ${answer.body.code ?? answer.status}: ${answer.body.reason ?? ""}\n`);
      return 1;
    }
    io.stdout.write(`${JSON.stringify(answer.body, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof OperatorServerUnreachable)) throw error;
    io.stderr.write(`paysvc ${name}: ${locked.message}, and ${error.message}: nothing changed\n`);
    return 1;
  }
}
