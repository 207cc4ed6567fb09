import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { platforms } from "../platform/tables.js";

/**
 * Stablecoins a platform registered. Symbol and token (network + normalized identifier) are unique per
 * platform: the unique indexes, not a read-then-insert, decide a concurrent race (409).
 */
export const stablecoins = pgTable(
  "stablecoins",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    symbol: text("symbol").notNull(),
    name: text("name").notNull(),
    network: text("network").notNull(),
    tokenIdentifier: text("token_identifier").notNull(),
    /** The identifier compared for uniqueness: lowercase for EVM contracts, as given for base58 mints. */
    tokenIdentity: text("token_identity").notNull(),
    decimals: integer("decimals").notNull(),
    backingCurrency: text("backing_currency").notNull(),
    supportedOperations: jsonb("supported_operations").notNull(),
    enablementStatus: text("enablement_status").notNull(),
    provisioned: boolean("provisioned").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    uniqueIndex("stablecoins_platform_symbol_key").on(t.platformId, t.symbol),
    uniqueIndex("stablecoins_platform_token_key").on(t.platformId, t.network, t.tokenIdentity),
    index("stablecoins_platform_created_idx").on(t.platformId, t.createdAt, t.id),
  ],
);

/** The platform's links to its stablecoin issuance provider accounts; revoked links stay readable. */
export const stablecoinProviderAccounts = pgTable(
  "stablecoin_provider_accounts",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    provider: text("provider").notNull(),
    accountReference: text("account_reference").notNull(),
    networks: jsonb("networks").notNull(),
    status: text("status").notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("stablecoin_provider_accounts_platform_created_idx").on(t.platformId, t.createdAt, t.id)],
);

/**
 * Tokens held in a provider account's treasury, per stablecoin, in the backing currency's minor units:
 * completed mints add, burns take (reserved when the burn is accepted, given back if it fails).
 */
export const stablecoinHoldings = pgTable(
  "stablecoin_holdings",
  {
    providerAccountId: text("provider_account_id")
      .notNull()
      .references(() => stablecoinProviderAccounts.id),
    stablecoinId: text("stablecoin_id")
      .notNull()
      .references(() => stablecoins.id),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    amount: bigint("amount", { mode: "number" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.providerAccountId, t.stablecoinId] })],
);

/** Mints and burns: PROCESSING until a job settles them COMPLETED or FAILED on the platform clock. */
export const stablecoinOperations = pgTable(
  "stablecoin_operations",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    stablecoinId: text("stablecoin_id")
      .notNull()
      .references(() => stablecoins.id),
    type: text("type").notNull(),
    status: text("status").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    accountId: text("account_id").notNull(),
    providerAccountId: text("provider_account_id")
      .notNull()
      .references(() => stablecoinProviderAccounts.id),
    transactionId: text("transaction_id").notNull(),
    /** A mint's external wallet, or a burn's external bank account paid out; null: neither. */
    destinationAccountId: text("destination_account_id"),
    /** A burn's payout rail to its external account (our PaymentRail); null: no payout. */
    destinationRail: text("destination_rail"),
    failureReason: text("failure_reason"),
    description: text("description"),
    completedAt: timestamp("completed_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("stablecoin_operations_stablecoin_created_idx").on(t.stablecoinId, t.createdAt, t.id)],
);
