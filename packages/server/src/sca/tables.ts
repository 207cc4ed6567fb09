import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { customers } from "../customers/tables.js";
import { platforms } from "../platform/tables.js";

/**
 * Per-customer SCA state (docs/decisions/sca.md): the run of wrong codes behind `423 ACCOUNT_LOCKED`, the
 * lock's end, and the contact values last proven by contact verification.
 */
export const scaCustomers = pgTable("sca_customers", {
  customerId: text("customer_id")
    .primaryKey()
    .references(() => customers.id),
  platformId: text("platform_id")
    .notNull()
    .references(() => platforms.id),
  failedAttempts: integer("failed_attempts").notNull().default(0),
  lockedUntil: timestamp("locked_until", { withTimezone: true, precision: 3 }),
  verifiedEmail: text("verified_email"),
  emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true, precision: 3 }),
  verifiedPhone: text("verified_phone"),
  phoneVerifiedAt: timestamp("phone_verified_at", { withTimezone: true, precision: 3 }),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
});

/**
 * One SCA challenge (`Request:<uuid>`): a login, a contact verification, a beneficiary untrust or one
 * payment. OTP codes are kept only as a SHA-256 hash; PASSKEY challenges keep the WebAuthn challenge.
 */
export const scaChallenges = pgTable(
  "sca_challenges",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    purpose: text("purpose", {
      enum: ["LOGIN", "CONTACT_EMAIL", "CONTACT_PHONE", "UNTRUST_BENEFICIARY", "PAYMENT"],
    }).notNull(),
    factor: text("factor", { enum: ["OTP", "PASSKEY"] }).notNull(),
    /**
     * An OTP code's check (core/secrets/code-mac.ts): HMAC-SHA256 of the code, hex, under `code_key`, a
     * random key of its own, sealed. Null for passkey challenges and for OTPs migration 0019 voided.
     */
    codeHash: text("code_hash"),
    codeKey: text("code_key"),
    webauthnChallenge: text("webauthn_challenge"),
    /** UNTRUST_BENEFICIARY: the external account; PAYMENT: the quote. */
    subjectId: text("subject_id"),
    state: text("state", { enum: ["OPEN", "COMPLETED", "FAILED", "EXPIRED", "ABANDONED"] }).notNull(),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("sca_challenges_customer_idx").on(t.customerId, t.purpose, t.createdAt),
    index("sca_challenges_subject_idx").on(t.subjectId).where(sql`${t.subjectId} IS NOT NULL`),
  ],
);

/** SCA login sessions (`Session:<uuid>`): 180 days on the platform's clock (interface, Limits). */
export const scaSessions = pgTable(
  "sca_sessions",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    factor: text("factor", { enum: ["OTP", "PASSKEY"] }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("sca_sessions_customer_idx").on(t.customerId, t.expiresAt)],
);

/** The customer-level SCA passkey factor: one live per customer (`409 PASSKEY_ALREADY_ENROLLED`). */
export const scaPasskeys = pgTable(
  "sca_passkeys",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    nickname: text("nickname").notNull(),
    credentialId: text("credential_id").notNull(),
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull(),
    transports: jsonb("transports"),
    deletedAt: timestamp("deleted_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    uniqueIndex("sca_passkeys_one_per_customer_key").on(t.customerId).where(sql`${t.deletedAt} IS NULL`),
  ],
);
