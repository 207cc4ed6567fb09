import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { inject } from "vitest";

const run = promisify(execFile);
export const repoDir = fileURLToPath(new URL("../../../../", import.meta.url));

/** npm, from the Node that runs the tests (npm_execpath is set under `npm test`, not under `npx vitest`). */
const npmCli = process.env.npm_execpath?.endsWith("npm-cli.js")
  ? process.env.npm_execpath
  : join(process.execPath, "../../lib/node_modules/npm/bin/npm-cli.js");

/**
 * Waits for the global setup's background build (test/paysvc-build.ts) to end, whatever its outcome: the
 * SDK's tarball needs only the SDK's dist/, which a type error elsewhere in the server leaves intact (the
 * tests on the packed files fail if it does not). The server's tarball test waits for nothing: it packs a
 * copy of the checkout with the packages' own lifecycle scripts (staging.ts).
 */
export async function buildEnded(): Promise<void> {
  const { buildStatusFile } = inject("paysvcTemplate");
  while (!(await readFile(buildStatusFile, "utf8").catch(() => ""))) await sleep(100);
}

/** The arguments that run `npx <args>` with this Node, from the installed project's own bins only. */
export function npxArgs(args: string[]): string[] {
  return [join(npmCli, "../npx-cli.js"), "--offline", ...args];
}

/** Runs npm with `args` in `cwd`; never audits, funds or touches the network. */
export async function npm(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [npmCli, ...args, "--no-audit", "--no-fund", "--offline"], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

export interface Tarball {
  /** The workspace folder, e.g. `packages/sdk`. */
  workspace: string;
  file: string;
  integrity: string;
  files: string[];
  manifest: PackageJson;
}

interface PackageJson {
  name: string;
  version: string;
  license?: string;
  dependencies?: Record<string, string>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
}

export interface PackOptions {
  /**
   * The folder holding the workspace: the checkout (the default), or a copy from staging.ts, in which
   * the package's lifecycle scripts may run.
   */
  root?: string;
  /** Runs the package's `prepack`/`prepare`, as `npm pack` and `npm publish` do. */
  runScripts?: boolean;
}

/**
 * `npm pack` of a workspace into `dest`. Lifecycle scripts are skipped unless asked for, and should only
 * be asked for in a copy (staging.ts): in the checkout they would rebuild dist/ folders that other test
 * files are running from.
 */
export async function pack(workspace: string, dest: string, options: PackOptions = {}): Promise<Tarball> {
  const { root = repoDir, runScripts = false } = options;
  const scripts = runScripts ? [] : ["--ignore-scripts"];
  const out = await npm(join(root, workspace), ["pack", ...scripts, "--json", "--pack-destination", dest]);
  const [result] = JSON.parse(out) as { filename: string; integrity: string; files: { path: string }[] }[];
  if (!result) throw new Error(`npm pack of ${workspace} reported nothing`);
  const manifest = JSON.parse(await readFile(join(root, workspace, "package.json"), "utf8")) as PackageJson;
  return {
    workspace,
    file: join(dest, result.filename),
    integrity: result.integrity,
    files: result.files.map((file) => file.path),
    manifest,
  };
}

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  link?: boolean;
  dev?: boolean;
  devOptional?: boolean;
  [field: string]: unknown;
}

/** Where Node finds `name` from the package at lock path `from`: its own node_modules, then each parent's. */
function resolveIn(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === "" ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (base === "") return undefined;
    const at = base.lastIndexOf("/node_modules/");
    base = at >= 0 ? base.slice(0, at) : "";
  }
}

/**
 * The registry address of a locked package's tarball. The workspace lockfile omits it, and without it npm
 * asks the registry for the package's metadata first, which the cache may not hold.
 */
function registryTarball(path: string, entry: LockEntry): string {
  const name =
    typeof entry.name === "string" ? entry.name : path.slice(path.lastIndexOf("node_modules/") + 13);
  const base = name.slice(name.lastIndexOf("/") + 1);
  return `https://registry.npmjs.org/${name}/-/${base}-${entry.version}.tgz`;
}

/**
 * The lockfile of an empty project that depends on `tarballs` only: the workspace lockfile's entries that
 * the tarballs' production dependencies reach (same versions, same integrity), laid out as an install of
 * them would be. `npm ci --offline` then installs it from the npm cache that the workspace's `npm ci`
 * filled, with no registry request; a dependency missing from a tarball's package.json is missing here too.
 */
async function lockfileFor(tarballs: Tarball[]): Promise<object> {
  const workspaceLock = JSON.parse(await readFile(join(repoDir, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };
  const source = workspaceLock.packages;
  const target = new Map(tarballs.map((t) => [t.workspace, `node_modules/${t.manifest.name}`]));
  const rename = (path: string) => {
    for (const [workspace, installed] of target)
      if (path === workspace || path.startsWith(`${workspace}/`))
        return installed + path.slice(workspace.length);
    return path;
  };
  const reached = new Set<string>();
  const visit = (path: string) => {
    if (reached.has(path)) return;
    reached.add(path);
    const entry = source[path] ?? {};
    const optional = { ...entry.optionalDependencies };
    for (const [name, meta] of Object.entries(entry.peerDependenciesMeta ?? {}))
      if (meta.optional) optional[name] = "*";
    const names = { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies };
    for (const name of Object.keys(names)) {
      let found = resolveIn(source, path, name);
      // A workspace package resolves to its folder through a link entry at the root.
      if (found && source[found]?.link) found = String(source[found]?.resolved);
      if (found) visit(found);
      else if (!(name in optional)) throw new Error(`${path} needs ${name}, which the lockfile lacks`);
    }
  };
  for (const tarball of tarballs) visit(tarball.workspace);
  const packages: Record<string, object> = {
    "": {
      dependencies: Object.fromEntries(tarballs.map((t) => [t.manifest.name, `file:${t.file}`])),
    },
  };
  for (const path of reached) {
    const tarball = tarballs.find((t) => t.workspace === path);
    if (tarball) {
      const { name, version, license, dependencies, bin, engines } = tarball.manifest;
      const resolved = `file:${tarball.file}`;
      packages[rename(path)] = {
        name,
        version,
        resolved,
        integrity: tarball.integrity,
        license,
        dependencies,
        bin,
        engines,
      };
      continue;
    }
    const { dev: _dev, devOptional: _devOptional, ...entry } = source[path] ?? {};
    packages[rename(path)] = { resolved: registryTarball(path, entry), ...entry };
  }
  return { name: "packaging-test", lockfileVersion: 3, requires: true, packages };
}

/**
 * Installs `tarballs` into the empty project `dir` as `npm install <tarballs>` would, but from the npm
 * cache alone (`npm ci --offline` over a lockfile taken from the workspace's): no registry, so neither
 * slow nor flaky.
 */
export async function installOffline(dir: string, tarballs: Tarball[]): Promise<void> {
  const lock = (await lockfileFor(tarballs)) as { packages: Record<string, { dependencies?: object }> };
  const dependencies = lock.packages[""]?.dependencies;
  await writeFile(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "packaging-test", private: true, type: "module", dependencies }, null, 2)}\n`,
  );
  await writeFile(join(dir, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
  await npm(dir, ["ci", "--ignore-scripts"]);
}
