import { sql } from "drizzle-orm";
import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { platforms } from "../platform/tables.js";

export const customers = pgTable(
  "customers",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    platformCustomerId: text("platform_customer_id"),
    customerType: text("customer_type", { enum: ["INDIVIDUAL", "BUSINESS"] }).notNull(),
    kycStatus: text("kyc_status").notNull(),
    umaAddress: text("uma_address").notNull(),
    isDeleted: boolean("is_deleted").notNull().default(false),
    profile: jsonb("profile").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("customers_platform_created_idx").on(t.platformId, t.createdAt, t.id),
    uniqueIndex("customers_platform_customer_id_key")
      .on(t.platformId, t.platformCustomerId)
      .where(sql`NOT ${t.isDeleted} AND ${t.platformCustomerId} IS NOT NULL`),
    uniqueIndex("customers_uma_address_key").on(t.platformId, t.umaAddress),
  ],
);

export const agreementConsents = pgTable(
  "agreement_consents",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    type: text("type").notNull(),
    termsVersion: text("terms_version").notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true, precision: 3 }).notNull(),
    ipAddress: text("ip_address"),
    acceptanceMethod: text("acceptance_method").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("agreement_consents_customer_idx").on(t.customerId, t.type)],
);

export const internalAccounts = pgTable(
  "internal_accounts",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    customerId: text("customer_id").references(() => customers.id),
    type: text("type", { enum: ["INTERNAL_FIAT", "INTERNAL_CRYPTO", "EMBEDDED_WALLET"] }).notNull(),
    role: text("role", { enum: ["STANDARD", "RULE_BASED", "BULK_SETTLEMENT"] })
      .notNull()
      .default("STANDARD"),
    status: text("status").notNull(),
    currency: text("currency").notNull(),
    privateEnabled: boolean("private_enabled"),
    totalBalance: bigint("total_balance", { mode: "number" }).notNull().default(0),
    heldAmount: bigint("held_amount", { mode: "number" }).notNull().default(0),
    version: bigint("version", { mode: "number" }).notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("internal_accounts_platform_created_idx").on(t.platformId, t.createdAt, t.id),
    index("internal_accounts_customer_idx").on(t.customerId),
  ],
);
