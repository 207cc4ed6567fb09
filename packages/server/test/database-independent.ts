/**
 * Test files that never touch the database of the run: they spawn `paysvc` processes, which never inherit
 * DATABASE_URL and always run on their own embedded database (test/paysvc-process.ts), or they use no
 * database at all. The PostgreSQL run leaves them out (vitest.config.ts): it would run them exactly as
 * the embedded run just did. A test (architecture/database-independent.test.ts) keeps this list honest.
 */
export const DATABASE_INDEPENDENT_FILES = [
  "packages/server/test/packaging/server-tarball.test.ts",
  "packages/server/test/operator/operator-commands.test.ts",
  "packages/server/test/operator/data-dir.test.ts",
  "packages/server/test/cli/help.test.ts",
  "packages/server/test/cli/launch.test.ts",
  "packages/server/test/cli/listen-trigger.test.ts",
  "packages/server/test/cli/npm-start.test.ts",
  "packages/server/test/cli/readme-quickstart.test.ts",
  "packages/server/test/cli/seed-logs-reset.test.ts",
  "packages/server/test/cli/server-file.test.ts",
  "packages/server/test/foundation/cli.test.ts",
  "packages/server/test/operations/configuration.test.ts",
  "packages/server/test/operations/deploy.test.ts",
  "packages/sdk/test/packaging.test.ts",
];
