import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { isAlive } from "../core/db/data-dir.js";

/**
 * `<data dir>/server.json`: where the server started on a data directory listens, written when it
 * listens and removed when it stops. Commands that talk to the server (`paysvc statement`) read it, so a
 * server on another port (`PORT`, `--port 0`) is found without `--url`.
 */
export interface ServerFile {
  /** The API base address, version included: http://127.0.0.1:8080/2025-10-13. */
  url: string;
  pid: number;
  mode: string;
  startedAt: string;
}

export const SERVER_FILE = "server.json";

const fileOf = (dataDir: string) => join(dataDir, SERVER_FILE);

/** Records this process as the server of `dataDir` (written aside and renamed: never half a file). */
export async function writeServerFile(dataDir: string, server: Omit<ServerFile, "pid">): Promise<void> {
  const path = fileOf(dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const body: ServerFile = { ...server, pid: process.pid };
  await writeFile(`${path}.${process.pid}.tmp`, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
  await rename(`${path}.${process.pid}.tmp`, path);
}

/**
 * Removes server.json if it still names this process: on PostgreSQL several servers may share a data
 * directory, and the one that stops must not withdraw another's address.
 */
export async function removeServerFile(dataDir: string): Promise<void> {
  const found = await readServerFile(dataDir);
  if (found?.pid === process.pid) await rm(fileOf(dataDir), { force: true });
}

async function readServerFile(dataDir: string): Promise<ServerFile | undefined> {
  try {
    const parsed = JSON.parse(await readFile(fileOf(dataDir), "utf8")) as Partial<ServerFile>;
    if (typeof parsed.url !== "string" || !Number.isInteger(parsed.pid)) return undefined;
    return parsed as ServerFile;
  } catch {
    return undefined;
  }
}

/** What `<data dir>/server.json` says: a live server, one whose process is gone, or none. */
export type FoundServer =
  | { kind: "running"; url: string; pid: number; file: string }
  | { kind: "stale"; url: string; pid: number; file: string }
  | { kind: "none"; file: string };

/** Reads the running server of `dataDir`; a file whose pid is not alive is `stale` (a crash, a SIGKILL). */
export async function findServer(dataDir: string): Promise<FoundServer> {
  const file = resolve(fileOf(dataDir));
  const found = await readServerFile(dataDir);
  if (!found) return { kind: "none", file };
  const kind = isAlive(found.pid) ? "running" : "stale";
  return { kind, url: found.url, pid: found.pid, file };
}
