import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  childEnv,
  migratedDataDir,
  type PaysvcProcess,
  paysvcBuilt,
  spawnPaysvc,
} from "../paysvc-process.js";

// The compiled bin is built in the background when the sources changed: not on a test's clock.
beforeAll(() => paysvcBuilt(), 300_000);

const repoDir = fileURLToPath(new URL("../../../../", import.meta.url));

/** The shell commands of the README's quickstart: the sh block between its quickstart markers. */
export async function quickstartCommands(): Promise<string> {
  const readme = await readFile(`${repoDir}README.md`, "utf8");
  const section = readme.match(/<!-- quickstart:start -->\n```sh\n([\s\S]*?)\n```\n<!-- quickstart:end -->/);
  if (!section?.[1]) throw new Error("README.md has no quickstart block between its markers");
  return section[1];
}

/** Runs `script` in bash from the repository's root, stopping at the first command that fails. */
async function bash(script: string, env: Record<string, string>) {
  const child = spawn("bash", ["-e", "-o", "pipefail", "-c", script], { cwd: repoDir, env: childEnv(env) });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr };
}

describe("the README's quickstart", () => {
  let dataDir: string;
  let server: PaysvcProcess;
  beforeAll(async () => {
    dataDir = await migratedDataDir("paysvc-readme");
    // As `npm start` in the README's first terminal: a new sandbox on its own data directory.
    server = await spawnPaysvc(["start", "--port", "0"], {
      env: { LOG_LEVEL: "warn", PAYSVC_DATA_DIR: dataDir },
    });
    await server.waitFor(/API token id /);
  }, 120_000);
  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      const exited = once(server.child, "exit");
      server.child.kill("SIGTERM");
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  test("every quickstart command runs as written against a new server and succeeds", async () => {
    const script = await quickstartCommands();
    // After each command, the variables it set: the seed's ids reach the commands that use them.
    const result = await bash(`${script}\necho "SEEDED $CUSTOMER $USD $CARD $USD2 $MONTH"`, {
      PAYSVC_DATA_DIR: dataDir,
    });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(
      /SEEDED Customer:\S+ InternalAccount:\S+ Card:\S+ InternalAccount:\S+ \d{4}-\d{2}\n$/,
    );
    // The statement printed, with the month's card purchases, and its receipt was recorded.
    expect(result.stdout).toContain("BLUE BOTTLE");
    expect(result.stderr).toMatch(/paysvc statement: receipt for InternalAccount:\S+ \S+ recorded/);
  }, 600_000);
});
