import { bigint, doublePrecision, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { platforms } from "../platform/tables.js";

/**
 * Quotes (conventions §3.3). The price (amounts, fees, rate) is fixed at creation and execution uses it
 * as stored. The account columns are nullable for the forms without one (REALTIME_FUNDING source,
 * UMA_ADDRESS destination); `source`/`destination` keep the wire objects, `details` the other echoed
 * request fields (description, remittanceInformation, purposeOfPayment, platformFeeOverride).
 */
export const quotes = pgTable(
  "quotes",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    status: text("status").notNull(),
    customerId: text("customer_id"),
    // No foreign keys to internal_accounts: on PostgreSQL the FK check takes FOR KEY SHARE on both
    // accounts, and an immediately executed quote would then wait for the ledger's FOR UPDATE on rows
    // another transfer holds KEY SHARE on: opposite transfers would deadlock. Accounts are never deleted.
    sourceAccountId: text("source_account_id"),
    destinationAccountId: text("destination_account_id"),
    sendingCurrency: text("sending_currency").notNull(),
    receivingCurrency: text("receiving_currency").notNull(),
    lockedCurrencySide: text("locked_currency_side", { enum: ["SENDING", "RECEIVING"] }).notNull(),
    lockedCurrencyAmount: bigint("locked_currency_amount", { mode: "number" }).notNull(),
    totalSendingAmount: bigint("total_sending_amount", { mode: "number" }).notNull(),
    totalReceivingAmount: bigint("total_receiving_amount", { mode: "number" }).notNull(),
    exchangeRate: doublePrecision("exchange_rate").notNull(),
    feesIncluded: bigint("fees_included", { mode: "number" }).notNull(),
    platformFeesIncluded: bigint("platform_fees_included", { mode: "number" }).notNull(),
    transactionId: text("transaction_id").notNull(),
    source: jsonb("source").notNull(),
    destination: jsonb("destination").notNull(),
    details: jsonb("details").notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("quotes_platform_created_idx").on(t.platformId, t.createdAt, t.id)],
);
