import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { cards } from "../cards/tables.js";
import { internalAccounts } from "../customers/tables.js";
import { platforms } from "../platform/tables.js";

/** Embedded-wallet credentials (AuthMethod, conventions §5.1). Revoked ones are kept, marked. */
export const authMethods = pgTable(
  "auth_methods",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    accountId: text("account_id")
      .notNull()
      .references(() => internalAccounts.id),
    type: text("type", { enum: ["PASSKEY", "OAUTH", "EMAIL_OTP", "SMS_OTP"] }).notNull(),
    nickname: text("nickname").notNull(),
    /** PASSKEY: the WebAuthn credential id (base64url), its COSE public key (base64url) and sign counter. */
    credentialId: text("credential_id"),
    passkeyPublicKey: text("passkey_public_key"),
    passkeyCounter: bigint("passkey_counter", { mode: "number" }),
    passkeyTransports: jsonb("passkey_transports"),
    /** OAUTH: the identity recorded at registration. */
    oidcIssuer: text("oidc_issuer"),
    oidcAudience: text("oidc_audience"),
    oidcSubject: text("oidc_subject"),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("auth_methods_account_idx").on(t.accountId, t.createdAt),
    uniqueIndex("auth_methods_one_otp_key")
      .on(t.accountId, t.type)
      .where(sql`${t.revokedAt} IS NULL AND ${t.type} IN ('EMAIL_OTP', 'SMS_OTP')`),
    uniqueIndex("auth_methods_passkey_key")
      .on(t.accountId, t.credentialId)
      .where(sql`${t.revokedAt} IS NULL AND ${t.credentialId} IS NOT NULL`),
  ],
);

/** OTP codes and their HPKE target keys (conventions §5.4); a new challenge voids the older ones. */
export const otpChallenges = pgTable(
  "otp_challenges",
  {
    id: text("id").primaryKey(),
    authMethodId: text("auth_method_id")
      .notNull()
      .references(() => authMethods.id),
    /**
     * The target key pair the client encrypts to: the private half sealed (core/secrets), never leaving
     * the database; the public half in hex.
     */
    targetPrivateKey: text("target_private_key").notNull(),
    targetPublicKey: text("target_public_key").notNull(),
    /**
     * The code's check (core/secrets/code-mac.ts): a random HMAC key of its own, sealed, and HMAC-SHA256 of
     * the code under it, hex. Null only on the challenges migration 0017 voided (they had an unkeyed digest).
     */
    codeKey: text("code_key"),
    codeHmac: text("code_hmac"),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    state: text("state", { enum: ["OPEN", "USED", "VOID"] }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("otp_challenges_method_idx").on(t.authMethodId, t.createdAt)],
);

/** Sessions (AuthSession): only the public half of the session key is kept. */
export const authSessions = pgTable(
  "auth_sessions",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    accountId: text("account_id")
      .notNull()
      .references(() => internalAccounts.id),
    authMethodId: text("auth_method_id")
      .notNull()
      .references(() => authMethods.id),
    /** Compressed P-256 public key, lowercase hex: the stamps this session may sign. */
    publicKey: text("public_key").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("auth_sessions_account_idx").on(t.accountId, t.expiresAt),
    index("auth_sessions_method_idx").on(t.authMethodId),
  ],
);

/**
 * Signed-retry operations (conventions §5.3) and passkey challenges: one row per `requestId`, bound to
 * the method, path, account and canonical body of the first call.
 */
export const signedRequests = pgTable(
  "signed_requests",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    accountId: text("account_id").notNull(),
    action: text("action").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    bodySha256: text("body_sha256").notNull(),
    payloadToSign: text("payload_to_sign").notNull(),
    /** Operation inputs fixed at the first call (the OTP verify's client key, the credential id…). */
    context: jsonb("context").notNull().default({}),
    state: text("state", { enum: ["ISSUED", "PROCESSING", "COMPLETED", "ANSWERED"] }).notNull(),
    /** sha256 of the stamp that moved it to PROCESSING: only that identical request may resume it. */
    stampSha256: text("stamp_sha256"),
    /** PROCESSING (sandbox): when the provider is done settling. */
    readyAt: timestamp("ready_at", { withTimezone: true, precision: 3 }),
    resultStatus: integer("result_status"),
    resultBody: text("result_body"),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("signed_requests_account_idx").on(t.accountId, t.createdAt)],
);

/** Failed credential proofs and challenge issues, for the rolling-window limits (conventions §5.8). */
export const authAttempts = pgTable(
  "auth_attempts",
  {
    id: text("id").primaryKey(),
    authMethodId: text("auth_method_id")
      .notNull()
      .references(() => authMethods.id),
    kind: text("kind", { enum: ["CHALLENGE", "FAILED_VERIFY"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("auth_attempts_method_idx").on(t.authMethodId, t.kind, t.createdAt)],
);

/**
 * The wallet seed behind an embedded wallet: its BIP-39 entropy sealed under the master key (core/secrets),
 * exported only sealed to a client key.
 */
export const embeddedWalletSeeds = pgTable("embedded_wallet_seeds", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => internalAccounts.id),
  entropy: text("entropy").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
});

/**
 * Delegated keys (the hosted API's DelegatedKey, issue 21 §6): a P-256 key pair paysvc makes when the wallet's
 * owner signs the create, authorizing card spending from the wallet for one card. The private half is sealed
 * (core/secrets, purpose `delegated-key`) and erased (NULL) when the key is revoked.
 */
export const delegatedKeys = pgTable(
  "delegated_keys",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    accountId: text("account_id")
      .notNull()
      .references(() => internalAccounts.id),
    cardId: text("card_id")
      .notNull()
      .references(() => cards.id),
    /** Compressed P-256 public key, lowercase hex. */
    publicKey: text("public_key").notNull(),
    privateKey: text("private_key"),
    nickname: text("nickname").notNull(),
    status: text("status", { enum: ["ACTIVE", "REVOKED"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("delegated_keys_platform_idx").on(t.platformId, t.createdAt),
    index("delegated_keys_account_idx").on(t.accountId, t.createdAt),
    uniqueIndex("delegated_keys_one_active").on(t.cardId, t.accountId).where(sql`${t.status} = 'ACTIVE'`),
  ],
);
