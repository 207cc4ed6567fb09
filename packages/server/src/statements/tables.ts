import { pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { internalAccounts } from "../customers/tables.js";
import { platforms } from "../platform/tables.js";

/** Delivery record of a monthly statement: when it was fetched (exact month window) and confirmed. */
export const statementDeliveries = pgTable(
  "statement_deliveries",
  {
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    accountId: text("account_id")
      .notNull()
      .references(() => internalAccounts.id),
    periodStart: timestamp("period_start", { withTimezone: true, precision: 3 }).notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true, precision: 3 }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.periodStart] })],
);
