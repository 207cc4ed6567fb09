import { bigint, boolean, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

export const platforms = pgTable("platforms", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  environment: text("environment", { enum: ["SANDBOX", "PRODUCTION"] }).notNull(),
  supportedCurrencies: text("supported_currencies").array().notNull(),
  /** Per supported code: amounts, required counterparty fields, enabled directions (platform-config/currency-configs.ts). */
  currencyConfigs: jsonb("currency_configs").notNull().default({}),
  sandboxSkipVerificationPaperwork: boolean("sandbox_skip_verification_paperwork").notNull().default(false),
  /** Sandbox clock: this platform's now is the service clock plus this offset; it only grows. */
  clockOffsetMs: bigint("clock_offset_ms", { mode: "number" }).notNull().default(0),
  feeConfigs: jsonb("fee_configs").notNull().default([]),
  /** Where events are delivered (conventions §7.3); null: events are recorded as undeliverable. */
  webhookEndpoint: text("webhook_endpoint"),
  /** Second factors offered before a card is added to a digital wallet; null: cards cannot be tokenized. */
  cardTokenization2faConfig: jsonb("card_tokenization_2fa_config").default({
    methods: ["EMAIL_OTP", "SMS_OTP"],
  }),
  /** Live (not CLOSED) cards allowed on the platform; raised by the service operator. */
  maxLiveCards: integer("max_live_cards").notNull().default(1000),
  /** Live cards allowed per cardholder on a limited platform; null: no per-cardholder cap. */
  maxLiveCardsPerCardholder: integer("max_live_cards_per_cardholder"),
  /** Embedded-wallet authentication: passkey relying party (rpId, origins) and OIDC providers. */
  walletAuthConfig: jsonb("wallet_auth_config").notNull().default({}),
  /** Where invitees claim invitations (`url` = this + `/` + code); null: invitations are not configured. */
  invitationBaseUrl: text("invitation_base_url"),
  /** Origins whose pages may frame the card reveal page (CSP frame-ancestors); [] uses the default. */
  cardRevealOrigins: jsonb("card_reveal_origins").$type<string[]>().notNull().default([]),
  /** Executed volume allowed per America/Chicago day, USD cents (DAILY_VOLUME_LIMIT_EXCEEDED); set by the operator. */
  dailyVolumeLimit: bigint("daily_volume_limit", { mode: "number" }).notNull().default(1_000_000_000),
  /** The platform's UMA domain (`PATCH /config umaDomain`); null: the default (platform/uma-domain.ts). */
  umaDomain: text("uma_domain").unique(),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
});

/**
 * Executed volume per platform and America/Chicago day, USD cents (src/quotes/daily-volume.ts). Every
 * execution adds to its day's row inside its own transaction, so the row lock serialises the check.
 * No foreign key: the FK check would take KEY SHARE on the platform row inside every execution.
 */
export const dailyVolumes = pgTable(
  "daily_volumes",
  {
    platformId: text("platform_id").notNull(),
    /** The Chicago calendar date, `YYYY-MM-DD`. */
    day: text("day").notNull(),
    volume: bigint("volume", { mode: "number" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.platformId, t.day] })],
);
