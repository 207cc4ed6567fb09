import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { catalogue, type ErrorCode } from "../../src/core/errors/catalogue.js";

// The interface as shared with the project (../shared beside the clone), else the copy under docs/spec.
function specText(name: string): string {
  const shared = fileURLToPath(new URL(`../../../../../shared/spec/${name}`, import.meta.url));
  const vendored = fileURLToPath(new URL(`../../../../docs/spec/${name}`, import.meta.url));
  return readFileSync(existsSync(shared) ? shared : vendored, "utf8");
}

function section(text: string, heading: string): string {
  const start = text.indexOf(heading);
  expect(start, `spec section ${heading}`).toBeGreaterThanOrEqual(0);
  const rest = text.slice(start + heading.length);
  const end = rest.search(/\n#{2,3} /);
  return end < 0 ? rest : rest.slice(0, end);
}

const tableCodes = (text: string) => [...text.matchAll(/^\| ([A-Z][A-Z0-9_]+) \|/gm)].map((m) => m[1] ?? "");
const backtickCodes = (text: string) => [...text.matchAll(/`([A-Z][A-Z0-9_]{2,})`/g)].map((m) => m[1] ?? "");

function specCodes(): Map<string, number> {
  const spec = specText("payments-service-interface.md");
  const codes = new Map<string, number>();
  const add = (list: string[], status: number) => {
    for (const code of list) codes.set(code, status);
  };
  add(tableCodes(section(spec, "### 400 codes")), 400);
  add(["END_USER_TERMS_NOT_ACCEPTED"], 400);
  add(tableCodes(section(spec, "### 401 codes")), 401);
  add(backtickCodes(section(spec, "### 404 codes")), 404);
  add(tableCodes(section(spec, "### 409 codes")), 409);
  add(backtickCodes(section(spec, "### 500 codes")), 500);
  const other = section(spec, "### Other conditions");
  expect(other).toContain("| ACCOUNT_LOCKED | `423` |");
  expect(other).toContain("| DAILY_VOLUME_LIMIT_EXCEEDED | `429` |");
  add(["ACCOUNT_LOCKED"], 423);
  add(["DAILY_VOLUME_LIMIT_EXCEEDED"], 429);
  return codes;
}

function conventionCodes(): Map<string, number> {
  const conventions = section(specText("conventions.md"), "### 1.7 Errors");
  const codes = new Map<string, number>();
  for (const row of conventions.matchAll(/^\| (\d{3}) \| (.+) \|$/gm)) {
    const cell = (row[2] ?? "").replace(/\([^)]*\)/g, "");
    for (const code of backtickCodes(cell)) codes.set(code, Number(row[1]));
  }
  return codes;
}

/** Codes neither spec document names, each a decision recorded in docs/decisions.md. */
const ourAdditions = new Map<ErrorCode, number>([["SERVICE_UNAVAILABLE", 503]]);

describe("error catalogue", () => {
  test("every code of the interface's Errors section is in the catalogue with its HTTP status", () => {
    const codes = specCodes();
    expect(codes.size).toBeGreaterThan(110);
    for (const [code, status] of codes) {
      expect(catalogue[code as ErrorCode], code).toBeDefined();
      expect(catalogue[code as ErrorCode].status, code).toBe(status);
    }
  });

  test("every code the conventions add (403, 405, 424, 429, 501 and FUNDING_SOURCE_INELIGIBLE) is in the catalogue", () => {
    const codes = conventionCodes();
    expect(codes.get("FUNDING_SOURCE_INELIGIBLE")).toBe(400);
    expect(codes.get("METHOD_NOT_ALLOWED")).toBe(405);
    for (const [code, status] of codes) expect(catalogue[code as ErrorCode]?.status, code).toBe(status);
  });

  test("the catalogue holds nothing beyond the interface, the conventions and our recorded additions", () => {
    const known = new Set([...specCodes().keys(), ...conventionCodes().keys(), ...ourAdditions.keys()]);
    expect(Object.keys(catalogue).filter((code) => !known.has(code))).toEqual([]);
  });

  test("each of our recorded additions has its status and an entry in docs/decisions.md", () => {
    const decisions = readFileSync(
      fileURLToPath(new URL("../../../../docs/decisions.md", import.meta.url)),
      "utf8",
    );
    for (const [code, status] of ourAdditions) {
      expect(catalogue[code].status, code).toBe(status);
      expect(decisions, code).toContain(`\`${code}\``);
    }
  });

  test("every entry has a one-sentence default reason", () => {
    for (const [code, entry] of Object.entries(catalogue)) expect(entry.reason, code).toMatch(/^[A-Z].+\.$/);
  });
});
