import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { customers } from "../customers/tables.js";
import { platforms } from "../platform/tables.js";

export const documents = pgTable(
  "documents",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    documentType: text("document_type").notNull(),
    fileName: text("file_name").notNull(),
    contentSha256: text("content_sha256").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    uniqueIndex("documents_customer_type_key").on(t.customerId, t.documentType),
    index("documents_platform_created_idx").on(t.platformId, t.createdAt, t.id),
  ],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    status: text("status").notNull(),
    errors: jsonb("errors").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("verifications_platform_created_idx").on(t.platformId, t.createdAt, t.id),
    index("verifications_customer_idx").on(t.customerId, t.createdAt),
    index("verifications_platform_status_idx").on(t.platformId, t.status, t.createdAt, t.id),
  ],
);

export const beneficialOwners = pgTable(
  "beneficial_owners",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    roles: jsonb("roles").notNull(),
    ownershipPercentage: integer("ownership_percentage").notNull(),
    personalInfo: jsonb("personal_info").notNull(),
    kycStatus: text("kyc_status").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("beneficial_owners_platform_created_idx").on(t.platformId, t.createdAt, t.id),
    index("beneficial_owners_customer_idx").on(t.customerId, t.createdAt, t.id),
  ],
);

export const kycLinks = pgTable(
  "kyc_links",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    tokenHash: text("token_hash").notNull(),
    redirectUri: text("redirect_uri"),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [uniqueIndex("kyc_links_token_hash_key").on(t.tokenHash)],
);
