import { pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The rate cache: one row per platform and currency pair, valid from `fetched_at` until `expires_at`
 * (5 minutes, platform clock). `rate` is the exact decimal string (exchange-rates/decimal.ts), never a
 * float. No foreign key to platforms: the check would take KEY SHARE on the platform row inside every
 * quote execution that converts volume.
 */
export const exchangeRates = pgTable(
  "exchange_rates",
  {
    platformId: text("platform_id").notNull(),
    sourceCurrency: text("source_currency").notNull(),
    destinationCurrency: text("destination_currency").notNull(),
    rate: text("rate").notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true, precision: 3 }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.platformId, t.sourceCurrency, t.destinationCurrency] })],
);
