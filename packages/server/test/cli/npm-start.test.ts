import { spawn } from "node:child_process";
import { once } from "node:events";
import { access, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { childEnv, migratedDataDir, paysvcBuilt } from "../paysvc-process.js";

// The launcher must not see a build the global setup is still writing.
beforeAll(() => paysvcBuilt(), 300_000);

const repoDir = fileURLToPath(new URL("../../../../", import.meta.url));

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Whether this process can listen on `port` now (then nothing else does). */
const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });

describe("npm start", () => {
  let dataDir: string;
  let serverPid: number | undefined;
  beforeAll(async () => {
    dataDir = await migratedDataDir("paysvc-npm-start");
  });
  afterAll(async () => {
    // Only if the rule failed: the server outlived npm.
    if (serverPid !== undefined && isAlive(serverPid)) process.kill(serverPid, "SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  test("npm start hands the process over: SIGTERM to npm stops the server, the port is free and the process gone", async () => {
    const npm = spawn("npm", ["start", "--", "--port", "0", "--data-dir", dataDir], {
      cwd: repoDir,
      env: childEnv({ LOG_LEVEL: "warn" }),
    });
    let output = "";
    const listening = new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
        if (match?.[1]) resolve(match[1]);
      };
      npm.stdout.on("data", onData);
      npm.stderr.on("data", onData);
      npm.once("exit", () => reject(new Error(`npm start exited before listening:\n${output}`)));
    });
    const port = Number(await listening);
    const server = JSON.parse(await readFile(join(dataDir, "server.json"), "utf8")) as { pid: number };
    serverPid = server.pid;
    expect(server.pid).not.toBe(npm.pid);
    const exited = once(npm, "exit");
    npm.kill("SIGTERM");
    const [code, signal] = await exited;
    // npm waits for its script's process; that process is the server itself (exec), which got the signal.
    expect(isAlive(server.pid), output).toBe(false);
    expect(await portIsFree(port)).toBe(true);
    // It stopped through its own SIGTERM handler (which removes server.json), and npm reports success.
    await expect(access(join(dataDir, "server.json"))).rejects.toMatchObject({ code: "ENOENT" });
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  }, 240_000);
});
