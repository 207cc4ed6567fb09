import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { cp, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { TSX_ENTRY } from "../bench/webhooks.js";
import type { BuildStatus } from "./paysvc-build.js";

const serverDir = fileURLToPath(new URL("../", import.meta.url));

/**
 * The Node arguments that run `paysvc` in tests: the compiled bin the global setup built, one Node process
 * (a SIGKILL kills the server itself). `npm start` runs the TypeScript entry through tsx instead; the
 * first-start test in test/foundation/cli.test.ts keeps that path (`viaTsx`).
 */
export async function paysvcEntry(options: { viaTsx?: boolean } = {}): Promise<string[]> {
  if (options.viaTsx) return [...TSX_ENTRY];
  const { entry, buildStatusFile } = inject("paysvcTemplate");
  const status = await buildFinished(buildStatusFile);
  if (!status.ok) throw new Error(`the build of ${entry} for spawned paysvc failed:\n${status.error}`);
  return [entry];
}

/**
 * For the `beforeAll` of a file that spawns `paysvc`: waits for the compiled bin (the global setup builds
 * it in the background when the sources changed, which takes a minute on a loaded machine), so that no
 * test's own timeout pays for the build.
 */
export async function paysvcBuilt(): Promise<void> {
  await paysvcEntry();
}

/** Waits for the global setup's background build (test/paysvc-build.ts) to write its outcome. */
async function buildFinished(statusFile: string): Promise<BuildStatus> {
  for (;;) {
    const text = await readFile(statusFile, "utf8").catch(() => null);
    if (text) return JSON.parse(text) as BuildStatus;
    await sleep(100);
  }
}

/** A new data directory whose embedded database is a copy of the run's migrated one (no initdb, no migrations). */
export async function migratedDataDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
  await cp(inject("paysvcTemplate").dataDir, join(dir, "db"), { recursive: true });
  return dir;
}

export interface PaysvcProcess {
  child: ChildProcessWithoutNullStreams;
  /** stdout and stderr so far, interleaved. */
  output: () => string;
  /** Resolves with the first match of `pattern` in the output; rejects if the process exits first. */
  waitFor: (pattern: RegExp) => Promise<RegExpMatchArray>;
}

export interface SpawnOptions {
  /** Added to the environment, which never carries DATABASE_URL or the PAYSVC_CLIENT_* credentials. */
  env?: Record<string, string>;
  viaTsx?: boolean;
}

/** The environment of a spawned paysvc: this one without DATABASE_URL or the PAYSVC_CLIENT_* credentials. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const {
    DATABASE_URL: _url,
    PAYSVC_CLIENT_ID: _id,
    PAYSVC_CLIENT_SECRET: _secret,
    ...inherited
  } = process.env;
  return { ...inherited, ...extra };
}

/** Starts `paysvc <args>` and follows its output. */
export async function spawnPaysvc(args: string[], options: SpawnOptions = {}): Promise<PaysvcProcess> {
  const child = spawn(process.execPath, [...(await paysvcEntry(options)), ...args], {
    cwd: serverDir,
    env: childEnv(options.env),
  });
  let text = "";
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  const onData = (chunk: Buffer) => {
    text += chunk.toString();
    for (const waiter of [...waiters]) {
      const match = text.match(waiter.pattern);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  return {
    child,
    output: () => text,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const match = text.match(pattern);
        if (match) return resolve(match);
        waiters.push({ pattern, resolve });
        child.once("exit", () => reject(new Error(`exited before ${pattern}: ${text}`)));
      }),
  };
}

/** Runs `paysvc <args>` to its exit; resolves with the exit code and each stream's output. */
export async function runPaysvc(
  args: string[],
  options: SpawnOptions = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...(await paysvcEntry(options)), ...args], {
    cwd: serverDir,
    env: childEnv(options.env),
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr };
}
