import { bigint, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { internalAccounts } from "../customers/tables.js";
import { platforms } from "../platform/tables.js";

/**
 * One immutable row per change to an internal account's balance. `balance_after` is the account's
 * balance after this row in (effective_at, id) order, so any instant's balance is one index lookup.
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
  },
  (t) => [
    index("balance_changes_account_effective_idx").on(t.accountId, t.effectiveAt, t.id),
    index("balance_changes_transaction_idx").on(t.transactionId),
  ],
);
