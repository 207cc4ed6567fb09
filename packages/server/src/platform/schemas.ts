import { type Static, Type } from "typebox";
import { DateTime, StringEnum } from "../core/http/schemas.js";
import { currencyCodes, MAX_AMOUNT } from "../core/money.js";
import { paymentRails } from "../rails/payment-rails.js";
import { PlatformCurrencyConfig } from "./currency-configs.js";
import { WalletAuthConfig as AuthProviderConfig } from "./wallet-auth-config.js";

/** Rails a platform fee can be set for: every PaymentRail, plus INTERNAL for transfers between internal accounts. */
export const feeRails = ["INTERNAL", ...paymentRails] as const;
export type FeeRail = (typeof feeRails)[number];

/**
 * The platform fee for one rail (docs/decisions.md "Quotes and fees"): a rate in basis points of the
 * total sent, a fixed amount in USD cents (platform fees apply to USD sources only), or both.
 */
export const RailFeeConfig = Type.Object(
  {
    rail: StringEnum(feeRails),
    variableRateBps: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
    fixedAmount: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_AMOUNT })),
  },
  { additionalProperties: false },
);
export type RailFeeConfig = Static<typeof RailFeeConfig>;

/** How a cardholder confirms adding a card to a digital wallet (docs/decisions.md "Cards"). */
export const CardTokenization2faConfig = Type.Object(
  {
    methods: Type.Array(StringEnum(["EMAIL_OTP", "SMS_OTP"]), {
      minItems: 1,
      maxItems: 2,
      uniqueItems: true,
    }),
  },
  { additionalProperties: false },
);
export type CardTokenization2faConfig = Static<typeof CardTokenization2faConfig>;

/** The longest sandbox PROCESSING delay a platform may set (docs/decisions.md "Embedded wallet authentication"). */
export const MAX_SANDBOX_PROCESSING_DELAY_MS = 60_000;

const SandboxProcessingDelayMs = Type.Integer({
  minimum: 0,
  maximum: MAX_SANDBOX_PROCESSING_DELAY_MS,
  description:
    "Sandbox only: a signed retry first answers 200 PROCESSING and settles this many ms later (platform clock); 0 settles at once.",
});

/**
 * Embedded-wallet authentication settings shown by `GET /config` (never key material): the passkey
 * relying party and OIDC providers (wallet-auth-config.ts) and the sandbox PROCESSING delay.
 */
export const WalletAuthConfig = Type.Object({
  ...AuthProviderConfig.properties,
  sandboxProcessingDelayMs: SandboxProcessingDelayMs,
});

/** `PATCH /config` `walletAuthConfig`: each given key replaces the stored one; keys not given are kept. */
export const UpdateWalletAuthConfig = Type.Object(
  { ...AuthProviderConfig.properties, sandboxProcessingDelayMs: Type.Optional(SandboxProcessingDelayMs) },
  { additionalProperties: false },
);
export type UpdateWalletAuthConfig = Static<typeof UpdateWalletAuthConfig>;

export const PlatformConfig = Type.Object({
  id: Type.String(),
  name: Type.String(),
  environment: StringEnum(["SANDBOX", "PRODUCTION"]),
  webhookEndpoint: Type.Union([Type.String(), Type.Null()]),
  /** The hosted API's PlatformCurrencyConfig per supported currency (docs/decisions.md "Currency settings"). */
  supportedCurrencies: Type.Array(PlatformCurrencyConfig),
  feeConfigs: Type.Array(RailFeeConfig),
  sandboxSkipVerificationPaperwork: Type.Boolean(),
  /** null: the platform's cards cannot be added to digital wallets (cardCapabilities). */
  cardTokenization2faConfig: Type.Union([CardTokenization2faConfig, Type.Null()]),
  /** Live-card caps (`CARD_LIMIT_REACHED`); set by the service operator (`paysvc card-limits`). */
  cardLimits: Type.Object({
    maxLiveCards: Type.Integer(),
    maxLiveCardsPerCardholder: Type.Union([Type.Integer(), Type.Null()]),
  }),
  /** Uncompressed P-256 key (hex) that signs every bundle paysvc returns (conventions §5.4, §7.3). */
  bundleSigningPublicKey: Type.String(),
  walletAuthConfig: WalletAuthConfig,
  /** Where invitees claim invitations (`url` = this + `/` + code); null: invitations are not configured. */
  invitationBaseUrl: Type.Union([Type.String(), Type.Null()]),
  /**
   * Origins whose pages may frame the card reveal page (`panEmbedUrl`, CSP frame-ancestors). Empty: none in
   * production; loopback origins in the sandbox (docs/decisions.md "Security (issue 16)").
   */
  cardRevealOrigins: Type.Array(Type.String()),
  /** Where the platform's customers receive UMA payments: `$user@<umaDomain>` (docs/guides/uma.md). */
  umaDomain: Type.String(),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const UpdateConfigBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    /** Replaces the whole list: each currency once; customers' accounts open in these currencies. */
    supportedCurrencies: Type.Optional(
      Type.Array(PlatformCurrencyConfig, { minItems: 1, maxItems: currencyCodes.length }),
    ),
    sandboxSkipVerificationPaperwork: Type.Optional(Type.Boolean()),
    /** Replaces the whole list; `[]` removes every platform fee. */
    feeConfigs: Type.Optional(Type.Array(RailFeeConfig, { maxItems: feeRails.length })),
    /**
     * An absolute http(s) URL, https outside the sandbox, without credentials, not at a loopback, private
     * or otherwise reserved address (sandbox: unless the service allows private targets); `null` clears it
     * (conventions §7.3; docs/decisions.md "Security (issue 16)").
     */
    webhookEndpoint: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 2048 }), Type.Null()])),
    /** Applies to cards issued afterwards; `null` turns digital-wallet tokenization off. */
    cardTokenization2faConfig: Type.Optional(Type.Union([CardTokenization2faConfig, Type.Null()])),
    walletAuthConfig: Type.Optional(UpdateWalletAuthConfig),
    /** An absolute http(s) URL, https outside the sandbox; `null` turns invitations off. */
    invitationBaseUrl: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 2048 }), Type.Null()]),
    ),
    /** Each an origin (`scheme://host[:port]`, https outside the sandbox); replaces the list, `[]` resets it. */
    cardRevealOrigins: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: 20 }),
    ),
    /** The platform's UMA domain (a DNS name, no port); `null` returns to the default (docs/guides/uma.md). */
    umaDomain: Type.Optional(Type.Union([Type.String({ minLength: 4, maxLength: 253 }), Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateConfigBody = Static<typeof UpdateConfigBody>;
