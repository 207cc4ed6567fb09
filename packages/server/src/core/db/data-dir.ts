import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import lockfile from "proper-lockfile";
import { tightenTree } from "./private-files.js";

const LOCK_NAME = "paysvc.lock";
const PID_NAME = "paysvc.pid";
/** The lock's mtime is refreshed this often; a lock older than STALE_MS belongs to a process that died. */
const UPDATE_MS = 2_000;
const STALE_MS = 10_000;

/** Another live paysvc process holds the data directory. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number | undefined,
  ) {
    super(
      `the data directory ${dataDir} is in use by another paysvc process${holderPid ? ` (pid ${holderPid})` : ""}`,
    );
    this.name = "DataDirLockedError";
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

async function holderPid(dataDir: string): Promise<number | undefined> {
  try {
    const pid = Number((await readFile(join(dataDir, PID_NAME), "utf8")).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists (EPERM: it exists but belongs to another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * One process per embedded database: PGlite has no locking of its own, and two processes on one
 * directory lose each other's writes. Takes an exclusive lock (proper-lockfile: an atomic mkdir whose
 * mtime the holder refreshes) and records the holder's pid; a lock left by a process that is gone is
 * taken over at once. `onLost` runs if the lock is ever lost while held (the caller must stop writing).
 */
export async function lockDataDir(dataDir: string, onLost: (error: Error) => void): Promise<DataDirLock> {
  const options = {
    lockfilePath: join(dataDir, LOCK_NAME),
    realpath: false,
    stale: STALE_MS,
    update: UPDATE_MS,
    onCompromised: onLost,
  };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dataDir, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
    const pid = await holderPid(dataDir);
    if (pid !== undefined && isAlive(pid)) throw new DataDirLockedError(dataDir, pid);
    // The recorded holder is gone (killed before it could unlock): its lock is stale now, not in 10 s.
    await rm(options.lockfilePath, { recursive: true, force: true });
    try {
      release = await lockfile.lock(dataDir, options);
    } catch (retry) {
      if ((retry as NodeJS.ErrnoException).code === "ELOCKED")
        throw new DataDirLockedError(dataDir, await holderPid(dataDir));
      throw retry;
    }
  }
  await writeFile(join(dataDir, PID_NAME), `${process.pid}\n`, { mode: 0o600 });
  return {
    release: async () => {
      await rm(join(dataDir, PID_NAME), { force: true });
      await release();
    },
  };
}

/**
 * From now on this process creates files 0600 and directories 0700 (umask 077), and the data directory
 * exists, 0700. PGlite still sets some modes of its own (its initial files 0666, the relation cache's init
 * file 0644), so the holder tightens the tree (`tightenDataDir`) after opening and after migrating.
 */
export async function createPrivateDataDir(dataDir: string): Promise<void> {
  process.umask(0o077);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
}

/**
 * Removes group and other permissions under the data directory, which holds private keys (its write-ahead
 * log and data files); only the process holding the directory does this. Returns how many were loose.
 */
export function tightenDataDir(dataDir: string): Promise<number> {
  return tightenTree(dataDir);
}
