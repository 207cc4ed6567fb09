import { defineConfig } from "drizzle-kit";

// drizzle-kit only generates the SQL files; core/db/migrate.ts applies them on PGlite and PostgreSQL alike.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/**/tables.ts",
  out: "./migrations",
});
