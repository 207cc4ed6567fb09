import { bigint, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { platforms } from "../platform/tables.js";

/** Payment transactions (INCOMING / OUTGOING); card transactions live with the cards area. */
export const transactions = pgTable(
  "transactions",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    type: text("type", { enum: ["INCOMING", "OUTGOING"] }).notNull(),
    status: text("status").notNull(),
    accountId: text("account_id").notNull(),
    customerId: text("customer_id"),
    currency: text("currency").notNull(),
    sentAmount: bigint("sent_amount", { mode: "number" }),
    receivedAmount: bigint("received_amount", { mode: "number" }),
    fees: bigint("fees", { mode: "number" }).notNull().default(0),
    platformFees: bigint("platform_fees", { mode: "number" }).notNull().default(0),
    quoteId: text("quote_id"),
    paymentRail: text("payment_rail"),
    railSelectionMode: text("rail_selection_mode"),
    failureReason: text("failure_reason"),
    pendingReason: text("pending_reason"),
    description: text("description"),
    reference: text("reference"),
    source: jsonb("source").notNull(),
    destination: jsonb("destination").notNull(),
    details: jsonb("details").notNull().default({}),
    settledAt: timestamp("settled_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("transactions_platform_created_idx").on(t.platformId, t.createdAt, t.id),
    index("transactions_account_idx").on(t.accountId, t.createdAt),
    index("transactions_quote_idx").on(t.quoteId),
  ],
);
