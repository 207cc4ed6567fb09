import { describe, expect, test } from "vitest";
import { parseSettings } from "../../src/config.js";
import { configurationTable, readRepoFile } from "./repository-files.js";

// The deployment recipe cannot be built here (no container runtime, no systemd): these tests hold what
// can be checked without running it to the code and to CI.

const dockerfile = readRepoFile("Dockerfile");
const compose = readRepoFile("compose.yaml");
const unit = readRepoFile("deploy/paysvc.service");
const envExample = readRepoFile("deploy/paysvc.env.example");
const ci = readRepoFile(".ci/run");
const rootPackage = JSON.parse(readRepoFile("package.json")) as {
  scripts: Record<string, string>;
  engines: { node: string };
};
const table = configurationTable(readRepoFile("README.md"));

/** `ENV A=1 B=2` lines of the Dockerfile. */
function dockerfileEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [, list] of dockerfile.matchAll(/^ENV (.+)$/gm))
    for (const [, name, value] of (list ?? "").matchAll(/([A-Z][A-Z0-9_]*)=(\S*)/g))
      if (name) env[name] = value ?? "";
  return env;
}

/** The `environment:` mapping of one compose service, `${VAR:-default}` replaced by its default. */
function composeEnv(service: string): Record<string, string> {
  const block = new RegExp(`^  ${service}:\\n((?:    .*\\n|\\s*\\n)*)`, "m").exec(compose)?.[1] ?? "";
  const environment = /^ {4}environment:\n((?: {6}.*\n)*)/m.exec(block)?.[1] ?? "";
  const env: Record<string, string> = {};
  for (const [, name, value] of environment.matchAll(/^ {6}([A-Z][A-Z0-9_]*): (.*)$/gm))
    if (name) env[name] = (value ?? "").replace(/\$\{[A-Z_]+:-([^}]*)\}/g, "$1");
  return env;
}

/** `Environment=A=1` lines of the unit, and the `A=1` lines of the example environment file. */
function systemdEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [, name, value] of unit.matchAll(/^Environment=([A-Z][A-Z0-9_]*)=(.*)$/gm))
    if (name) env[name] = value ?? "";
  for (const [, name, value] of envExample.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm))
    if (name) env[name] = value ?? "";
  return env;
}

/** What `npm start` runs, without the `exec` that hands the shell's process over. */
const startCommand = (rootPackage.scripts.start ?? "").replace(/^exec /, "");

describe("deployment recipe: Dockerfile, compose.yaml, deploy/ (issue 22 §5)", () => {
  test("every variable the recipes set is one of the README's configuration table", () => {
    const set = [
      ...Object.keys(dockerfileEnv()),
      ...Object.keys(composeEnv("paysvc")),
      ...Object.keys(systemdEnv()),
    ];
    expect(set.length).toBeGreaterThan(8);
    expect(set.filter((name) => !table.has(name))).toEqual([]);
  });

  test("the settings each recipe gives the server parse as a start's settings", () => {
    const docker = parseSettings(["start"], dockerfileEnv());
    expect(docker).toMatchObject({ host: "0.0.0.0", port: 8080, dataDir: "/data", mode: "sandbox" });
    const composed = parseSettings(["start"], { ...dockerfileEnv(), ...composeEnv("paysvc") });
    expect(composed.databaseUrl).toMatch(/^postgres:\/\/paysvc:[^@]+@postgres:5432\/paysvc$/);
    expect(composed.metricsToken).toBeUndefined();
    const systemd = parseSettings(["start"], systemdEnv());
    expect(systemd).toMatchObject({
      mode: "production",
      dataDir: "/var/lib/paysvc",
      allowPrivateTargets: false,
    });
  });

  test("the compose database is the one the PostgreSQL service creates", () => {
    const postgres = composeEnv("postgres");
    const url = new URL(composeEnv("paysvc").DATABASE_URL ?? "");
    expect(decodeURIComponent(url.username)).toBe(postgres.POSTGRES_USER);
    expect(decodeURIComponent(url.password)).toBe(postgres.POSTGRES_PASSWORD);
    expect(url.pathname).toBe(`/${postgres.POSTGRES_DB}`);
    expect(compose).toMatch(/condition: service_healthy/);
  });

  test("the image installs with CI's command, builds with the build script and starts as npm start does", () => {
    const install = /^npm ci .*$/m.exec(ci)?.[0];
    expect(install).toBe("npm ci --no-audit --no-fund");
    expect(dockerfile).toContain(`RUN ${install}\n`);
    expect(rootPackage.scripts.build).toBeDefined();
    expect(dockerfile).toMatch(/^RUN npm run build\b/m);
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? "[]") as string[];
    expect(cmd.join(" ")).toBe(startCommand);
    expect(unit).toContain(`ExecStart=/usr/bin/${startCommand}\n`);
  });

  test("the image's Node satisfies the engines field, and it exposes the port it listens on", () => {
    const major = Number(/^FROM node:(\d+)/m.exec(dockerfile)?.[1]);
    expect(major).toBeGreaterThanOrEqual(Number(/>=(\d+)/.exec(rootPackage.engines.node)?.[1]));
    expect(dockerfile).toContain(`EXPOSE ${dockerfileEnv().PORT}`);
    expect(compose).toContain(`"127.0.0.1:8080:${dockerfileEnv().PORT}"`);
  });
});
