import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { childEnv, paysvcBuilt } from "../paysvc-process.js";

// The launcher must not see a build the global setup is still writing.
beforeAll(() => paysvcBuilt(), 300_000);

const serverDir = fileURLToPath(new URL("../../", import.meta.url));
const launcher = join(serverDir, "src/cli/launch.mjs");

type Entry = { kind: "dist" | "tsx"; file: string; reason?: string };
// The launcher is plain JavaScript (it runs before anything is compiled): imported by path, typed here.
const { chooseEntry } = (await import(launcher)) as { chooseEntry: (dir: string) => Entry };

describe("the paysvc launcher (npm start, npm run paysvc)", () => {
  let dir: string;
  const at = (file: string, seconds: number) => utimes(join(dir, file), seconds, seconds);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "paysvc-launch-"));
    await mkdir(join(dir, "src/core"), { recursive: true });
    await writeFile(join(dir, "src/main.ts"), "");
    await writeFile(join(dir, "src/core/ids.ts"), "");
    await writeFile(join(dir, "src/core/ids.test.ts"), "");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test("no compiled build: the sources run through tsx, and the reason says how to build", () => {
    expect(chooseEntry(dir)).toEqual({
      kind: "tsx",
      file: join(dir, "src/main.ts"),
      reason: "there is no compiled build (npm run build makes one)",
    });
  });

  test("a build newer than every source file runs from dist/", async () => {
    await mkdir(join(dir, "dist"), { recursive: true });
    await writeFile(join(dir, "dist/main.js"), "");
    await at("src/main.ts", 1_000);
    await at("src/core/ids.ts", 2_000);
    await at("dist/main.js", 3_000);
    // Test files do not compile into dist/: a newer one does not make the build stale.
    await at("src/core/ids.test.ts", 4_000);
    expect(chooseEntry(dir)).toEqual({ kind: "dist", file: join(dir, "dist/main.js") });
  });

  test("a source file newer than the build runs the sources through tsx: a stale build never runs", async () => {
    await at("src/core/ids.ts", 5_000);
    expect(chooseEntry(dir)).toMatchObject({
      kind: "tsx",
      reason: "the compiled build is older than the sources (npm run build)",
    });
  });

  test("the launcher runs paysvc in its own process, either way", async () => {
    const child = spawn(process.execPath, [launcher, "--version"], { env: childEnv() });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  }, 60_000);
});
