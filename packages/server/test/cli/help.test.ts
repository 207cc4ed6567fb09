import { beforeAll, describe, expect, test } from "vitest";
import { COMMANDS, CommandLineExit, parseCommandLine } from "../../src/cli/program.js";
import { paysvcBuilt, runPaysvc } from "../paysvc-process.js";

// The compiled bin is built in the background when the sources changed: not on a test's clock.
beforeAll(() => paysvcBuilt(), 300_000);

/** parseCommandLine with its output captured: the same function the bin runs, in this process. */
function parse(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const output = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  };
  try {
    return { line: parseCommandLine(argv, output), exitCode: undefined, stdout, stderr };
  } catch (error) {
    if (!(error instanceof CommandLineExit)) throw error;
    return { line: undefined, exitCode: error.exitCode, stdout, stderr };
  }
}

describe("paysvc help (spawned)", () => {
  test("paysvc --help: exit 0, the usage with every command on stdout, nothing on stderr", async () => {
    const result = await runPaysvc(["--help"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^Usage: paysvc \[command\] \[options\]/);
    for (const name of COMMANDS) expect(result.stdout).toMatch(new RegExp(`\\n  ${name} `));
  }, 30_000);

  test("paysvc <command> --help: exit 0, that command's usage and options on stdout", async () => {
    const result = await runPaysvc(["statement", "--help"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^Usage: paysvc statement \[options\]/);
    expect(result.stdout).toContain("--account <id>");
    expect(result.stdout).toContain("Exit status:");
  }, 30_000);

  test("paysvc help <command>: the same as <command> --help", async () => {
    const result = await runPaysvc(["help", "start"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(parse(["start", "--help"]).stdout);
    expect(result.stdout).toContain("DATABASE_URL");
  }, 30_000);

  test("an unknown command: exit 1, the error and the usage on stderr, nothing on stdout", async () => {
    const result = await runPaysvc(["statment"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^paysvc: unknown command 'statment'\n\(Did you mean statement\?\)/);
    expect(result.stderr).toContain("Usage: paysvc [command] [options]");
  }, 30_000);

  test("an unknown option: exit 1, the error and that command's usage on stderr", async () => {
    const result = await runPaysvc(["statement", "--acount", "InternalAccount:x"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^paysvc: unknown option '--acount'\n\(Did you mean --account\?\)/);
    expect(result.stderr).toContain("Usage: paysvc statement [options]");
  }, 30_000);

  test("paysvc --version: exit 0, the package version on stdout", async () => {
    const result = await runPaysvc(["--version"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  }, 30_000);
});

describe("paysvc help (every command, parsed in process)", () => {
  test.each(COMMANDS.map((name) => [name]))("paysvc %s --help: exit 0, its usage on stdout", (name) => {
    const result = parse([name, "--help"]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(new RegExp(`^Usage: paysvc ${name} \\[options\\]`));
    expect(result.stdout).toContain("-h, --help");
  });

  test("help fits an 80-column terminal", () => {
    for (const argv of [["--help"], ...COMMANDS.map((name) => [name, "--help"])]) {
      const long = parse(argv)
        .stdout.split("\n")
        .filter((line) => line.length > 80);
      expect(long, argv.join(" ")).toEqual([]);
    }
  });

  test("no command, or options only, runs start", () => {
    expect(parse([]).line?.name).toBe("start");
    expect(parse(["--port", "0"]).line).toMatchObject({ name: "start", options: { port: "0" } });
  });

  test("an option without its value is a usage error: exit 1, nothing run", () => {
    const result = parse(["statement", "--month"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^paysvc: option '--month <YYYY-MM>' argument missing/);
  });

  test("extra arguments are a usage error", () => {
    const result = parse(["start", "now"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^paysvc: too many arguments for 'start'/);
  });
});
