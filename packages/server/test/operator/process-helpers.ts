import { once } from "node:events";
import { lstat, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { type PaysvcProcess, spawnPaysvc } from "../paysvc-process.js";

export const listening = /paysvc sandbox listening on (http:\/\/127\.0\.0\.1:\d+)\/2025-10-13\n/;

/** `paysvc start` on the embedded database in `dataDir`: the process, its base URL and API token. */
export async function startOn(dataDir: string, logLevel = "warn") {
  const run = await spawnPaysvc(["start", "--port", "0", "--data-dir", dataDir], {
    env: { LOG_LEVEL: logLevel },
  });
  const [, base = ""] = await run.waitFor(listening);
  await run.waitFor(/API token id /);
  // The secret is printed only at the first start; credentials.json always has it.
  const saved = JSON.parse(await readFile(join(dataDir, "credentials.json"), "utf8")) as {
    clientId: string;
    clientSecret: string;
  };
  const authorization = `Basic ${Buffer.from(`${saved.clientId}:${saved.clientSecret}`).toString("base64")}`;
  return { run, base, authorization };
}

/** SIGTERM, and waits for the process to exit. */
export async function stop(run: PaysvcProcess): Promise<void> {
  if (run.child.exitCode !== null) return;
  const exited = once(run.child, "exit");
  run.child.kill("SIGTERM");
  await exited;
}

/** Every entry under `dir` with its permission bits (symbolic links skipped). */
export async function modesUnder(dir: string): Promise<{ path: string; mode: number; directory: boolean }[]> {
  const entries: { path: string; mode: number; directory: boolean }[] = [];
  const visit = async (path: string) => {
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) return;
    entries.push({ path, mode: stats.mode & 0o777, directory: stats.isDirectory() });
    if (stats.isDirectory()) for (const name of await readdir(path)) await visit(join(path, name));
  };
  await visit(dir);
  return entries;
}

/** No entry under `dir` is readable, writable or searchable by group or others. */
export async function expectPrivate(dir: string): Promise<void> {
  const open = (await modesUnder(dir)).filter((e) => (e.mode & 0o077) !== 0);
  expect(open.map((e) => `${e.path} ${e.mode.toString(8)}`)).toEqual([]);
}
