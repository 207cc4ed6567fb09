import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { areaCircles, areaOf, fileCircles, type ImportGraph, readImportGraph } from "./import-graph.js";

const packages = fileURLToPath(new URL("../../../", import.meta.url));
const server = readImportGraph(join(packages, "server/src"));
const sdk = readImportGraph(join(packages, "sdk/src"));

/**
 * The drizzle table definitions (`<area>/tables.ts`) are the database schema, read by drizzle-kit only:
 * their imports follow foreign keys (wallet-auth's credentials reference customers' internal accounts,
 * while customers' code calls wallet-auth), so they are one layer of their own, left out of the area check.
 */
const isTableSchema = (file: string) => file.endsWith("/tables.ts");

describe.each([
  ["server", server],
  ["sdk", sdk],
] as const)("import graph of packages/%s/src", (_name, graph) => {
  test("no circle of files imports itself (type-only imports included)", () => {
    expect(fileCircles(graph)).toEqual([]);
  });
  test("no cycle between area folders (files directly in src/ are the composition root; tables.ts is the schema layer)", () => {
    expect(areaCircles(graph, isTableSchema)).toEqual([]);
  });
});

test("the table definitions are a layer of their own: only tables.ts files import a tables.ts", () => {
  const importers = [...server.imports]
    .filter(([file, targets]) => !isTableSchema(file) && targets.some(isTableSchema))
    .map(([file]) => file);
  expect(importers).toEqual([]);
});

/** The files of `graph` whose text matches `pattern`. */
const filesMatching = (graph: ImportGraph, pattern: RegExp) =>
  graph.files.filter((file) => pattern.test(readFileSync(join(graph.root, file), "utf8")));

const imports = (graph: ImportGraph, fromArea: string, toArea: string) =>
  [...graph.imports].filter(
    ([file, targets]) => areaOf(file) === fromArea && targets.some((target) => areaOf(target) === toArea),
  );

describe("payments owns payment transactions (issue 17)", () => {
  test("only payments/ writes the transactions table", () => {
    const writers = filesMatching(
      server,
      /insertTransaction|updateTransaction|deleteTransaction|INTO transactions|UPDATE transactions/,
    );
    expect(writers.filter((file) => areaOf(file) !== "payments")).toEqual([]);
  });
  test("only payments/ names INCOMING_PAYMENT and OUTGOING_PAYMENT events (besides the outbox's list of types and the CLI's trigger table, an API client)", () => {
    const namers = filesMatching(server, /(OUTGOING|INCOMING)_PAYMENT\./);
    expect(namers.filter((file) => areaOf(file) !== "payments")).toEqual([
      "cli/trigger.ts",
      "webhooks/outbox.ts",
    ]);
  });
  test("balance changes are posted only by payments, cards and stablecoins", () => {
    const posters = filesMatching(server, /postBalanceChanges\(/).filter((file) => areaOf(file) !== "ledger");
    expect([...new Set(posters.map(areaOf))].sort()).toEqual(["cards", "payments", "stablecoins"]);
  });
  test("transactions/ is a read view importing neither cards nor agents; quotes and payments import no sca, payments no agents", () => {
    expect(imports(server, "transactions", "agents")).toEqual([]);
    expect(imports(server, "transactions", "cards")).toEqual([]);
    expect(imports(server, "quotes", "sca")).toEqual([]);
    expect(imports(server, "payments", "sca")).toEqual([]);
    expect(imports(server, "payments", "agents")).toEqual([]);
  });
});
