import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { DATABASE_INDEPENDENT_FILES } from "../database-independent.js";
import { childEnv } from "../paysvc-process.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
// What reaches the run's database: the harness's server, the test database, or DATABASE_URL itself.
const databaseUse = /startServer|harness\.js|openTestDb|dbTemplate|process\.env\.DATABASE_URL/;

describe("files the PostgreSQL run leaves out never touch the run's database", () => {
  test.each(DATABASE_INDEPENDENT_FILES)(
    "%s uses neither the harness, the test database nor DATABASE_URL",
    (file) => {
      const path = join(root, file);
      expect(existsSync(path)).toBe(true);
      expect(readFileSync(path, "utf8")).not.toMatch(databaseUse);
    },
  );

  test("a spawned paysvc never inherits DATABASE_URL: it runs on its own embedded database", () => {
    const before = process.env.DATABASE_URL;
    process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test";
    try {
      expect(childEnv()).not.toHaveProperty("DATABASE_URL");
    } finally {
      if (before === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = before;
    }
  });
});
