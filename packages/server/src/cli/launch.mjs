#!/usr/bin/env node
// `npm start` and `npm run paysvc` in the repository: runs paysvc from the compiled build
// (packages/server/dist, `npm run build`) when it is newer than every source file, else the TypeScript
// sources through tsx, in this same process either way, so signals reach the server (issue 22 §2). Plain
// JavaScript because it must run before anything is compiled; the published bin is dist/main.js itself.
import { readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** Newest modification time of the `.ts` files that compile into dist/ (tests excluded, as tsconfig.build). */
function newestSource(dir) {
  let newest = 0;
  for (const file of readdirSync(dir, { recursive: true })) {
    if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
    newest = Math.max(newest, statSync(join(dir, file)).mtimeMs);
  }
  return newest;
}

/**
 * Which entry runs paysvc from the package directory `serverDir`: dist/main.js when the build is at least
 * as new as the sources, else src/main.ts through tsx with the reason (a stale build would run old code).
 */
export function chooseEntry(serverDir) {
  const built = join(serverDir, "dist", "main.js");
  const source = join(serverDir, "src", "main.ts");
  let builtAt;
  try {
    builtAt = statSync(built).mtimeMs;
  } catch {
    return { kind: "tsx", file: source, reason: "there is no compiled build (npm run build makes one)" };
  }
  if (builtAt < newestSource(join(serverDir, "src")))
    return {
      kind: "tsx",
      file: source,
      reason: "the compiled build is older than the sources (npm run build)",
    };
  return { kind: "dist", file: built };
}

const invoked = process.argv[1] ? pathToFileURL(realpathSync(process.argv[1])).href : "";
if (import.meta.url === invoked) {
  const entry = chooseEntry(fileURLToPath(new URL("../../", import.meta.url)));
  if (entry.kind === "tsx") {
    process.stderr.write(`paysvc: running the TypeScript sources through tsx: ${entry.reason}\n`);
    await import("tsx");
  }
  await import(pathToFileURL(entry.file).href);
}
