import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** A package's source files and the files each imports (relative imports only; type-only imports count). */
export interface ImportGraph {
  root: string;
  files: string[];
  imports: Map<string, string[]>;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Reads the import graph of every non-test `.ts` file under `root`, paths relative to it. */
export function readImportGraph(root: string): ImportGraph {
  const files = sourceFiles(root).map((file) => relative(root, file));
  const known = new Set(files);
  const imports = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = importedFiles
      .map((ref) => ref.fileName)
      .filter((spec) => spec.startsWith("."))
      .map((spec) => relative(root, resolve(root, dirname(file), spec)).replace(/\.js$/, ".ts"))
      .filter((target) => known.has(target));
    imports.set(file, [...new Set(targets)]);
  }
  return { root, files, imports };
}

/** Strongly connected components with more than one member (Tarjan): each is a circle of imports. */
export function circles(nodes: string[], edges: (node: string) => string[]): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges(node)) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}

/** The area of a file: its first folder under the package root; files at the root are the composition root. */
export const areaOf = (file: string): string =>
  file.includes("/") ? (file.split("/")[0] ?? file) : "(root)";

/**
 * Circles between area folders: an area that imports another which, directly or not, imports it back.
 * Files for which `leaveOut` is true are not part of it.
 */
export function areaCircles(
  graph: ImportGraph,
  leaveOut: (file: string) => boolean = () => false,
): string[][] {
  const areaImports = new Map<string, Set<string>>();
  for (const [file, targets] of graph.imports) {
    if (leaveOut(file)) continue;
    const from = areaOf(file);
    const set = areaImports.get(from) ?? new Set<string>();
    for (const target of targets) if (areaOf(target) !== from) set.add(areaOf(target));
    areaImports.set(from, set);
  }
  return circles([...areaImports.keys()], (area) => [...(areaImports.get(area) ?? [])]);
}

/** Circles between files. */
export function fileCircles(graph: ImportGraph): string[][] {
  return circles(graph.files, (file) => graph.imports.get(file) ?? []);
}
