import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { customers } from "../customers/tables.js";
import { platforms } from "../platform/tables.js";

export const externalAccounts = pgTable(
  "external_accounts",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    customerId: text("customer_id").references(() => customers.id),
    status: text("status").notNull(),
    currency: text("currency").notNull(),
    accountType: text("account_type").notNull(),
    /**
     * What makes two accounts equivalent: a bank account's bank fields and number (bank-accounts/spec.ts
     * bankIdentity; `routing:account` for USD), the (EVM: lowercased) address for wallets.
     */
    identity: text("identity").notNull(),
    accountInfo: jsonb("account_info").notNull(),
    ownershipType: text("ownership_type"),
    platformAccountId: text("platform_account_id"),
    defaultUmaDepositAccount: boolean("default_uma_deposit_account").notNull().default(false),
    deletedAt: timestamp("deleted_at", { withTimezone: true, precision: 3 }),
    /** USD accounts validated by micro-entries: the wire `bankValidation` (external-accounts/bank-validation.ts). */
    bankValidation: jsonb("bank_validation"),
    /** Set while the account is a trusted beneficiary of its customer (SCA exemption, docs/decisions/sca.md). */
    trustedAt: timestamp("trusted_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("external_accounts_platform_created_idx").on(t.platformId, t.createdAt, t.id),
    uniqueIndex("external_accounts_equivalent_key")
      .on(t.platformId, sql`coalesce(${t.customerId}, '')`, t.currency, t.accountType, t.identity)
      .where(sql`${t.deletedAt} IS NULL`),
  ],
);

/**
 * Ownership-verification challenges of self-custody wallets (conventions §4.2). At most one is open per
 * account: a new one abandons it. Liveness links are kept only as a hash of their token.
 */
export const ownershipChallenges = pgTable(
  "ownership_challenges",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    externalAccountId: text("external_account_id")
      .notNull()
      .references(() => externalAccounts.id),
    method: text("method", { enum: ["WALLET_SIGNATURE", "LIVENESS"] }).notNull(),
    /** OPEN until verified, failed, abandoned by a newer challenge, or expired when used late. */
    state: text("state", { enum: ["OPEN", "VERIFIED", "FAILED", "ABANDONED", "EXPIRED"] }).notNull(),
    /** WALLET_SIGNATURE: the exact message to sign. */
    messageToSign: text("message_to_sign"),
    /** LIVENESS: sha256 of the link's token. */
    tokenHash: text("token_hash"),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true, precision: 3 }),
    /** LIVENESS: when the person completed the hosted flow; the provider's answer is still to come. */
    submittedAt: timestamp("submitted_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("ownership_challenges_account_created_idx").on(t.externalAccountId, t.createdAt),
    uniqueIndex("ownership_challenges_token_key").on(t.tokenHash).where(sql`${t.tokenHash} IS NOT NULL`),
  ],
);

/** A receiver lookup of an external account (`GET /receiver/external-account/{id}`), for the quote citing it. */
export const externalAccountLookups = pgTable(
  "external_account_lookups",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    accountId: text("account_id")
      .notNull()
      .references(() => externalAccounts.id),
    customerId: text("customer_id"),
    senderUmaAddress: text("sender_uma_address"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("external_account_lookups_platform_idx").on(t.platformId, t.createdAt)],
);
