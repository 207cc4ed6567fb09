import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { childEnv } from "../paysvc-process.js";
import { stageCheckout } from "./staging.js";
import { installOffline, npxArgs, pack, repoDir, type Tarball } from "./tarballs.js";

// The packages' own builds (the SDK's prepare, the server's prepack: two tsc runs and Vite), then the
// install into an empty project: about a minute on an idle 2-core machine, minutes under load.
const SETUP_TIMEOUT_MS = 420_000;

/** A compiled file whose source no longer exists. */
const LEFTOVER = "deleted-source.js";

let work: string;
let project: string;
let server: Tarball;
// The tarballs are what `npm pack` makes with the packages' real lifecycle scripts, run in a copy of the
// checkout (staging.ts); the global setup's build is neither waited for nor used.
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "paysvc-pack-server-"));
  const checkout = join(work, "checkout");
  project = join(work, "project");
  await stageCheckout(checkout, ["packages/sdk", "packages/server"]);
  // What an older build left in dist/: the prepack must start from an empty folder.
  await mkdir(join(checkout, "packages/server/dist"));
  await writeFile(join(checkout, "packages/server/dist", LEFTOVER), "");
  // The server compiles against the SDK's declarations, which the SDK's prepare writes.
  const sdk = await pack("packages/sdk", work, { root: checkout, runScripts: true });
  server = await pack("packages/server", work, { root: checkout, runScripts: true });
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
  test("the tarball is built by the package's prepack from an empty dist/: a file an older build left there does not ship", () => {
    expect(server.files).toContain("dist/main.js");
    expect(server.files).not.toContain(`dist/${LEFTOVER}`);
  });

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

  describe("npx paysvc start", () => {
    let child: ChildProcess;
    let origin: string;
    beforeAll(async () => {
      child = npx(["paysvc", "start", "--port", "0", "--data-dir", join(work, "data")]);
      const output = collect(child);
      origin = await new Promise<string>((resolve, reject) => {
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
    }, 180_000);
    afterAll(async () => {
      // npx runs paysvc as its child and may exit before it: signal the whole group, then wait until
      // every process of the group is gone, so none still writes into the data directory.
      if (child?.pid) {
        if (child.exitCode === null) process.kill(-child.pid, "SIGTERM");
        await processGroupEnded(child.pid);
      }
    }, 60_000);

    test("runs the sandbox on the embedded database and answers /healthz", async () => {
      const health = await fetch(`${origin}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: "ok" });
    });

    test("serves the dashboard the package carries: its page and the script the page names", async () => {
      const page = await fetch(`${origin}/dashboard`);
      expect(page.status).toBe(200);
      const html = await page.text();
      const script = /<script\b[^>]*\bsrc="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script, html).toBeDefined();
      const asset = await fetch(`${origin}${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("content-type")).toMatch(/^text\/javascript/);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
    });
  });
});
