import { boolean, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const platforms = pgTable("platforms", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  environment: text("environment", { enum: ["SANDBOX", "PRODUCTION"] }).notNull(),
  supportedCurrencies: text("supported_currencies").array().notNull(),
  sandboxSkipVerificationPaperwork: boolean("sandbox_skip_verification_paperwork").notNull().default(false),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
});
