import { readFile } from "node:fs/promises";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Vitest's order (failed first, then slowest by the last run's durations, unknown files by size), except
 * that files spawning `paysvc` processes always go first: they are the slowest, and on a clean checkout,
 * with no durations cached (CI), they are small files that would otherwise start last and end the run
 * alone on one worker.
 */
export class SpawningFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const spawns = await Promise.all(
      sorted.map(async (file) => (await readFile(file.moduleId, "utf8")).includes("paysvc-process.js")),
    );
    return [...sorted.filter((_file, i) => spawns[i]), ...sorted.filter((_file, i) => !spawns[i])];
  }
}
