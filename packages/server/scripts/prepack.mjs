// The server package's `prepack` (run by `npm pack` and `npm publish`): the tarball's dist/ is built here
// from the sources, whatever the folder held before. The packaging test runs it through a real `npm pack`
// (packages/server/test/packaging/).
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const serverDir = fileURLToPath(new URL("../", import.meta.url));
const dashboardDir = fileURLToPath(new URL("../../dashboard/", import.meta.url));
const dist = fileURLToPath(new URL("../dist/", import.meta.url));

/**
 * Runs npm (npm_execpath: set by npm for the scripts it runs) with its output on stderr, so that nothing
 * the builds print gets into the JSON of `npm pack --json`.
 */
function runNpm(cwd, args) {
  const npmCli = process.env.npm_execpath;
  if (!npmCli)
    throw new Error("scripts/prepack.mjs is the package's prepack: run `npm pack` or `npm publish`");
  execFileSync(process.execPath, [npmCli, ...args], { cwd, stdio: ["ignore", 2, 2] });
}

// A clean compile: the file of a source deleted or renamed since the last build must not ship.
rmSync(dist, { recursive: true, force: true });
runNpm(serverDir, ["run", "build"]);
// The dashboard's Vite build, into this package: the dashboard workspace is private and is not installed
// with paysvc. Built from its sources, as packages/dashboard/dist may be older than they are.
runNpm(dashboardDir, ["run", "build", "--", "--outDir", `${dist}dashboard-app`, "--emptyOutDir"]);
