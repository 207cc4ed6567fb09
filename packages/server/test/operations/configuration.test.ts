import { describe, expect, test } from "vitest";
import { parseSettings } from "../../src/config.js";
import { configurationTable, filesUnder, readRepoFile, variablesRead } from "./repository-files.js";

const SOURCE = [".ts", ".mts", ".mjs", ".js"];
/** Where variables are read: the service, the SDK, the examples and the development tools with their tests. */
const READERS = [
  "packages/server/src",
  "packages/sdk/src",
  "examples",
  "packages/server/test",
  "packages/server/bench",
  "packages/server/fuzz",
  "packages/server/chaos",
  "packages/sdk/test",
];
/** Where variables are named for users: the README, the guides, the examples' READMEs, the operations docs. */
const DOCS = ["README.md", "docs/reliability.md", "docs/benchmarks.md"];

const table = configurationTable(readRepoFile("README.md"));

/** Each variable read, with the files that read it. */
function readers(): Map<string, string[]> {
  const read = new Map<string, string[]>();
  for (const dir of READERS)
    for (const file of filesUnder(dir, SOURCE))
      for (const name of variablesRead(readRepoFile(file))) read.set(name, [...(read.get(name) ?? []), file]);
  return read;
}

describe("configuration: one table of environment variables (issue 22 §5)", () => {
  test("every environment variable the code reads is in the README's configuration table", () => {
    const unlisted = [...readers()].filter(([name]) => !table.has(name));
    expect(unlisted).toEqual([]);
  });

  test("every variable in the README's configuration table is read by the code", () => {
    const read = readers();
    expect([...table].filter((name) => !read.has(name))).toEqual([]);
  });

  test("config.ts reads only variables of the table, and the table has every one it reads", () => {
    const read = variablesRead(readRepoFile("packages/server/src/config.ts"));
    expect(read.size).toBeGreaterThan(10);
    expect([...read].filter((name) => !table.has(name))).toEqual([]);
  });

  test("the README, guides, examples and the command's help name no PAYSVC_ variable outside the table", () => {
    const texts = [
      ...DOCS,
      ...filesUnder("docs/guides", [".md"]),
      ...filesUnder("examples", [".md", ...SOURCE]),
      "packages/server/src/cli/help-texts.ts",
    ];
    const strays: string[] = [];
    for (const file of texts) {
      const text = readRepoFile(file);
      // A wildcard such as PAYSVC_DB_* names a group, not a variable.
      for (const [, name] of text.matchAll(/\b(PAYSVC_[A-Z0-9_]*[A-Z0-9])\b(?!_?\*)/g))
        if (name && !table.has(name)) strays.push(`${file}: ${name}`);
    }
    expect([...new Set(strays)]).toEqual([]);
  });

  test("PAYSVC_METRICS_TOKEN enables /metrics, and a token shorter than 32 characters is refused", () => {
    const token = "m".repeat(32);
    expect(parseSettings(["start"], { PAYSVC_METRICS_TOKEN: token }).metricsToken).toBe(token);
    expect(parseSettings(["start"], {}).metricsToken).toBeUndefined();
    expect(() => parseSettings(["start"], { PAYSVC_METRICS_TOKEN: "short" })).toThrow(/metricsToken/);
  });
});
