import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { DATABASE_INDEPENDENT_FILES } from "./packages/server/test/database-independent.js";
import { SpawningFilesFirst } from "./packages/server/test/sequencer.js";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "packages/*/src/**/*.test.ts"],
    // On PostgreSQL, the files that never touch the run's database are not run a second time.
    exclude: [
      "**/node_modules/**",
      "**/dist/**",
      ...(process.env.DATABASE_URL ? DATABASE_INDEPENDENT_FILES : []),
    ],
    globalSetup: ["packages/server/test/global-setup.ts"],
    pool: "forks",
    // One app and one database per worker, shared by the files it runs (packages/server/test/worker-app.ts):
    // without isolation a worker keeps its modules, and so that app, from one file to the next.
    isolate: false,
    sequence: { sequencer: SpawningFilesFirst },
    // One worker per core: with one app per worker, files are CPU-bound, and on the 2-core machine 2 workers
    // finished the PGlite run in 182 s, 3 in 203 s, 4 in 191 s and 6 in 251 s (docs/decisions.md "Test runs").
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    coverage: {
      provider: "v8",
      include: ["packages/*/src/**/*.ts"],
      exclude: ["**/*.test.ts", "**/tables.ts"],
      reporter: ["text-summary"],
    },
  },
});
