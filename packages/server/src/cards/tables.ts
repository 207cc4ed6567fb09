import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { customers, internalAccounts } from "../customers/tables.js";
import { platforms } from "../platform/tables.js";

/**
 * Issued cards (conventions §6.1). The PAN is never stored: the sandbox derives it from the card id
 * (cards/pan.ts); the PIN is kept only as a salted scrypt hash.
 */
export const cards = pgTable(
  "cards",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    cardholderId: text("cardholder_id")
      .notNull()
      .references(() => customers.id),
    platformCardId: text("platform_card_id").notNull(),
    status: text("status", { enum: ["PROCESSING", "ACTIVE", "FROZEN", "CLOSED"] }).notNull(),
    statusReason: text("status_reason", { enum: ["ISSUER_REJECTED", "CLOSED_BY_PLATFORM"] }),
    pinStatus: text("pin_status", { enum: ["NOT_SET", "OK", "BLOCKED"] })
      .notNull()
      .default("NOT_SET"),
    /** `scrypt$<salt b64>$<hash b64>`; null until a PIN is set. */
    pinHash: text("pin_hash"),
    /** Incorrect PIN attempts in a row; reset by a correct attempt or a new PIN. */
    pinFailedAttempts: integer("pin_failed_attempts").notNull().default(0),
    brand: text("brand", { enum: ["VISA", "MASTERCARD"] }).notNull(),
    form: text("form", { enum: ["VIRTUAL"] }).notNull(),
    last4: text("last4").notNull(),
    expMonth: integer("exp_month").notNull(),
    expYear: integer("exp_year").notNull(),
    /** InternalAccount ids in priority order (at least one). */
    fundingSources: jsonb("funding_sources").notNull(),
    maxSpendPerTransaction: bigint("max_spend_per_transaction", { mode: "number" }),
    currency: text("currency").notNull(),
    supportsDigitalWalletTokenization: boolean("supports_digital_wallet_tokenization").notNull(),
    processorRef: text("processor_ref").notNull(),
    issuerRef: text("issuer_ref").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("cards_platform_created_idx").on(t.platformId, t.createdAt, t.id),
    index("cards_cardholder_idx").on(t.cardholderId, t.status),
    uniqueIndex("cards_platform_card_id_key").on(t.platformId, t.platformCardId),
  ],
);

/**
 * Card transactions (conventions §6.3). Amounts are minor units of the card's currency; `hold_amount`
 * is the part of the authorization still held on `account_id` (internal_accounts.held_amount sums them).
 */
export const cardTransactions = pgTable(
  "card_transactions",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    cardId: text("card_id")
      .notNull()
      .references(() => cards.id),
    accountId: text("account_id")
      .notNull()
      .references(() => internalAccounts.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    issuerTransactionToken: text("issuer_transaction_token").notNull(),
    status: text("status", {
      enum: ["AUTHORIZED", "PARTIALLY_SETTLED", "SETTLED", "VOIDED", "EXCEPTION", "DECLINED"],
    }).notNull(),
    direction: text("direction", { enum: ["DEBIT", "CREDIT"] }).notNull(),
    merchant: jsonb("merchant").notNull(),
    currency: text("currency").notNull(),
    authorizedAmount: bigint("authorized_amount", { mode: "number" }).notNull(),
    holdAmount: bigint("hold_amount", { mode: "number" }).notNull().default(0),
    /** Null until a clearing posts (the wire omits settledAmount until then). */
    settledAmount: bigint("settled_amount", { mode: "number" }),
    /** Null until a return posts. */
    refundedAmount: bigint("refunded_amount", { mode: "number" }),
    originalTransactionId: text("original_transaction_id"),
    cardDeclinedReason: text("card_declined_reason"),
    /** Sandbox descriptor outcomes still to come: `EXCEPTION_ON_CLEARING` (006). */
    sandboxOutcome: text("sandbox_outcome"),
    pullCount: integer("pull_count").notNull().default(0),
    pullTotal: bigint("pull_total", { mode: "number" }).notNull().default(0),
    pullPendingCount: integer("pull_pending_count").notNull().default(0),
    settlementCount: integer("settlement_count").notNull().default(0),
    settlementTotal: bigint("settlement_total", { mode: "number" }).notNull().default(0),
    refundCount: integer("refund_count").notNull().default(0),
    refundTotal: bigint("refund_total", { mode: "number" }).notNull().default(0),
    authorizedAt: timestamp("authorized_at", { withTimezone: true, precision: 3 }).notNull(),
    lastEventAt: timestamp("last_event_at", { withTimezone: true, precision: 3 }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("card_transactions_platform_created_idx").on(t.platformId, t.createdAt, t.id),
    index("card_transactions_card_idx").on(t.cardId, t.createdAt),
    index("card_transactions_original_idx")
      .on(t.originalTransactionId)
      .where(sql`${t.originalTransactionId} IS NOT NULL`),
  ],
);

/** Single-use PAN reveal links (conventions §6.2): only the token's hash is kept. */
export const cardReveals = pgTable("card_reveals", {
  tokenHash: text("token_hash").primaryKey(),
  platformId: text("platform_id")
    .notNull()
    .references(() => platforms.id),
  cardId: text("card_id")
    .notNull()
    .references(() => cards.id),
  expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true, precision: 3 }),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
});
