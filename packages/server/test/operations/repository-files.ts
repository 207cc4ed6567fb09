import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root (this file is packages/server/test/operations/). */
export const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

export const readRepoFile = (path: string): string => readFileSync(join(repoRoot, path), "utf8");

const SKIPPED = new Set(["node_modules", "dist", "coverage", ".paysvc"]);

/** Files under `dir` (relative to the root) whose names end with one of `extensions`, as root-relative paths. */
export function filesUnder(dir: string, extensions: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (absolute: string) => {
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      if (SKIPPED.has(entry.name) || entry.name.startsWith(".")) continue;
      const path = join(absolute, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (extensions.some((extension) => entry.name.endsWith(extension)))
        found.push(relative(repoRoot, path));
    }
  };
  walk(join(repoRoot, dir));
  return found.sort();
}

/** The text of a markdown section: from its `## title` heading to the next heading of level 1 or 2. */
export function markdownSection(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`no section "## ${title}"`);
  const rest = text.slice(start + 1);
  const end = rest.slice(3).search(/\n#{1,2} /);
  return end < 0 ? rest : rest.slice(0, end + 3);
}

/** The variable names of the README's configuration table: the backquoted names in its first column. */
export function configurationTable(readme: string): Set<string> {
  const names = new Set<string>();
  for (const line of markdownSection(readme, "Configuration").split("\n")) {
    if (!line.startsWith("|")) continue;
    const first = line.split("|")[1] ?? "";
    for (const [, name] of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) if (name) names.add(name);
  }
  return names;
}

/**
 * The environment variables a source file reads: a property of `env` (also `process.env`) by name or
 * by quoted index, names destructured from an env object, and whole string literals naming a PAYSVC_
 * variable (looked up through a table).
 */
export function variablesRead(source: string): Set<string> {
  const names = new Set<string>();
  const add = (name: string | undefined) => name && names.add(name);
  for (const [, name] of source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)) add(name);
  for (const [, name] of source.matchAll(/\benv\[\s*["'`]([A-Z][A-Z0-9_]*)["'`]\s*\]/g)) add(name);
  for (const [, list] of source.matchAll(/\{([^{}]*)\}\s*=\s*(?:process\.)?env\b/g))
    for (const [, name] of (list ?? "").matchAll(/\b([A-Z][A-Z0-9_]*)\s*[:,}]/g)) add(name);
  for (const [, name] of source.matchAll(/["'`](PAYSVC_[A-Z0-9_]*[A-Z0-9])["'`]/g)) add(name);
  return names;
}
