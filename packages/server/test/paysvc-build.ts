import { execFile } from "node:child_process";
import { readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const repoDir = fileURLToPath(new URL("../../../", import.meta.url));

/** The compiled bin that spawned `paysvc` processes run. */
export const paysvcBin = join(repoDir, "packages/server/dist/main.js");

/** The build's outcome, written next to the test templates when it ends: spawning tests wait for it. */
export interface BuildStatus {
  ok: boolean;
  error?: string;
}

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const file of await readdir(dir, { recursive: true })) {
    if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
    newest = Math.max(newest, (await stat(join(dir, file))).mtimeMs);
  }
  return newest;
}

async function modifiedAt(file: string): Promise<number> {
  return (await stat(file).catch(() => null))?.mtimeMs ?? 0;
}

/** True when both dist/ folders are newer than every source file that compiles into them. */
async function upToDate(): Promise<boolean> {
  const [sdkSource, serverSource, sdkBuilt, serverBuilt] = await Promise.all([
    newestSource(join(repoDir, "packages/sdk/src")),
    newestSource(join(repoDir, "packages/server/src")),
    modifiedAt(join(repoDir, "packages/sdk/dist/index.js")),
    modifiedAt(paysvcBin),
  ]);
  return sdkBuilt > sdkSource && serverBuilt > Math.max(serverSource, sdkBuilt);
}

/**
 * Compiles the SDK and the server to `dist/` (what `npm run build` does) unless they are up to date, then
 * writes the outcome to `statusFile`. The global setup starts it without waiting: only the few files that
 * spawn `paysvc` wait for it (test/paysvc-process.ts).
 */
export async function buildPaysvc(statusFile: string): Promise<void> {
  let status: BuildStatus = { ok: true };
  try {
    if (!(await upToDate())) {
      const tsc = join(repoDir, "node_modules/typescript/bin/tsc");
      await run(process.execPath, [tsc, "-p", "packages/sdk/tsconfig.build.json"], { cwd: repoDir });
      await run(process.execPath, [tsc, "-p", "packages/server/tsconfig.build.json"], { cwd: repoDir });
    }
  } catch (error) {
    const output = error as { stdout?: string; message?: string };
    status = { ok: false, error: output.stdout || output.message || String(error) };
  }
  await writeFile(statusFile, JSON.stringify(status));
}
