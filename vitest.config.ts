import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "packages/*/src/**/*.test.ts"],
    globalSetup: ["packages/server/test/global-setup.ts"],
    pool: "forks",
    // One app and one database per worker, shared by the files it runs (packages/server/test/worker-app.ts):
    // without isolation a worker keeps its modules, and so that app, from one file to the next.
    isolate: false,
    // Test files spend much of their time waiting on the database and on sandbox jobs: on a 2-core CI box
    // 4 workers finish the PostgreSQL run in 360 s instead of 544 s (docs/decisions.md "Test runs").
    maxWorkers: Math.max(4, availableParallelism()),
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
