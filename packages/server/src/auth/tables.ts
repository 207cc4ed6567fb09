import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { platforms } from "../platform/tables.js";

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    name: text("name").notNull(),
    permissions: text("permissions").array().notNull(),
    clientId: text("client_id").notNull().unique("api_tokens_client_id_key"),
    secretHash: text("secret_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("api_tokens_platform_created_idx").on(t.platformId, t.createdAt, t.id)],
);
