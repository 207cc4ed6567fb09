import { bigint, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { internalAccounts } from "../customers/tables.js";
import { platforms } from "../platform/tables.js";

/**
 * One immutable row per change to an internal account's balance. `balance_after` and `count_after` are
 * the account's balance and number of changes after this row in (effective_at, id) order, so the balance
 * and the change count at any instant are one index lookup each.
 */
export const balanceChanges = pgTable(
  "balance_changes",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    accountId: text("account_id")
      .notNull()
      .references(() => internalAccounts.id),
    transactionId: text("transaction_id").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    fee: bigint("fee", { mode: "number" }).notNull(),
    effectiveAt: timestamp("effective_at", { withTimezone: true, precision: 3 }).notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true, precision: 3 }).notNull(),
    balanceAfter: bigint("balance_after", { mode: "number" }).notNull(),
    /** How many changes the account has up to and including this one, in (effective_at, id) order. */
    countAfter: bigint("count_after", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    index("balance_changes_account_effective_idx").on(t.accountId, t.effectiveAt, t.id),
    index("balance_changes_transaction_idx").on(t.transactionId),
  ],
);
