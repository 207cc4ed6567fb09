import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { childEnv, paysvcBuilt } from "../paysvc-process.js";
import { installOffline, npxArgs, pack, repoDir, type Tarball } from "./tarballs.js";

// Packing and installing into an empty project takes about 20 s on an idle 2-core machine, more under load.
const SETUP_TIMEOUT_MS = 300_000;

let work: string;
let project: string;
let server: Tarball;
// The compiled bin is what the tarball ships (the same build as its prepack); on a loaded machine the
// global setup's build takes minutes, so it has its own timeout, as in the other spawning files.
beforeAll(() => paysvcBuilt(), SETUP_TIMEOUT_MS);
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "paysvc-pack-server-"));
  project = join(work, "project");
  const [sdk, packed] = await Promise.all([pack("packages/sdk", work), pack("packages/server", work)]);
  server = packed;
  await mkdir(project);
  await installOffline(project, [sdk, server]);
}, SETUP_TIMEOUT_MS);
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true, maxRetries: 10 });
});

/** Runs `npx <args>` in the installed project; the spawned paysvc never inherits DATABASE_URL. */
function npx(args: string[]): ChildProcess {
  return spawn(process.execPath, npxArgs(args), { cwd: project, env: childEnv(), detached: true });
}

/** Waits until no process of the group is left; bounded, since an unreaped zombie would still count. */
async function processGroupEnded(groupId: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      process.kill(-groupId, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function collect(child: ChildProcess): () => string {
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

describe("paysvc installed from its npm tarball, without a clone (issue 22 §5)", () => {
  test("the tarball holds the compiled bin, every migration, the sources its maps name and the LICENSE, and no test", async () => {
    const migrations = (await readdir(join(repoDir, "packages/server/migrations"))).filter((f) =>
      f.endsWith(".sql"),
    );
    expect(server.files).toEqual(
      expect.arrayContaining([
        "LICENSE",
        "package.json",
        "dist/main.js",
        "dist/main.js.map",
        "src/main.ts",
        "migrations/meta/_journal.json",
        ...migrations.map((file) => `migrations/${file}`),
      ]),
    );
    expect(server.files.filter((file) => /\.test\.|(^|\/)test\//.test(file))).toEqual([]);
    expect(server.manifest).toMatchObject({ license: "Apache-2.0", bin: { paysvc: "dist/main.js" } });
  });

  test("every source map of the installed bin names sources that are in the package", async () => {
    const installed = join(project, "node_modules/@paysvc/server");
    const maps = server.files.filter((file) => file.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(100);
    const missing: string[] = [];
    for (const map of maps) {
      const { sources } = JSON.parse(await readFile(join(installed, map), "utf8")) as { sources: string[] };
      for (const source of sources) {
        const path = join(installed, map, "..", source).slice(installed.length + 1);
        if (!server.files.includes(path)) missing.push(`${map} -> ${source}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test("npx paysvc --help prints the usage on stdout and exits 0", async () => {
    const child = npx(["paysvc", "--help"]);
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: paysvc /);
    expect(stdout).toMatch(/\n {2}start \[options\] /);
  }, 60_000);

  test("npx paysvc start runs the sandbox on the embedded database and answers /healthz", async () => {
    const dataDir = join(work, "data");
    const child = npx(["paysvc", "start", "--port", "0", "--data-dir", dataDir]);
    const output = collect(child);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const match = /paysvc sandbox listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output());
          if (match?.[1]) {
            clearInterval(timer);
            resolve(match[1]);
          }
        }, 100);
        child.once("exit", () => {
          clearInterval(timer);
          reject(new Error(`paysvc exited before listening:\n${output()}`));
        });
      });
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: "ok" });
    } finally {
      // npx runs paysvc as its child and may exit before it: signal the whole group, then wait until
      // every process of the group is gone, so none still writes into the data directory.
      if (child.pid) {
        if (child.exitCode === null) process.kill(-child.pid, "SIGTERM");
        await processGroupEnded(child.pid);
      }
    }
  }, 180_000);
});
