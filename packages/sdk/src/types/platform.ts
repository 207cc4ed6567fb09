/** Platform configuration wire types, mirroring packages/server/src/platform/schemas.ts, and the payment rails. */

export interface PlatformConfig {
  id: string;
  name: string;
  environment: "SANDBOX" | "PRODUCTION";
  webhookEndpoint: string | null;
  /** Each supported currency with its UMA settings; customers' accounts open in these currencies. */
  supportedCurrencies: PlatformCurrencyConfig[];
  /** Platform fees per rail (USD sources only). */
  feeConfigs: RailFeeConfig[];
  sandboxSkipVerificationPaperwork: boolean;
  /** null: the platform's cards cannot be added to digital wallets. */
  cardTokenization2faConfig: CardTokenization2faConfig | null;
  /** Live-card caps; set by the service operator. */
  cardLimits: { maxLiveCards: number; maxLiveCardsPerCardholder: number | null };
  /** Uncompressed P-256 key (hex) that signs every bundle paysvc returns (`dangerouslyOverrideSignerPublicKey`). */
  bundleSigningPublicKey: string;
  walletAuthConfig: {
    /** Embedded-wallet passkeys: assertions must name `rpId` and come from one of `origins`. */
    passkey?: { rpId: string; origins: string[] };
    /** OIDC providers whose ID tokens OAUTH credentials accept. */
    oidcProviders?: { issuer: string; audiences: string[]; jwksUri?: string }[];
    /** Sandbox only: signed retries answer PROCESSING first and settle this many ms later. */
    sandboxProcessingDelayMs: number;
  };
  /** Where invitation links point; null: invitations are not configured (`INVITATIONS_NOT_CONFIGURED`). */
  invitationBaseUrl: string | null;
  /** Origins whose pages may frame the card reveal page (`panEmbedUrl`); empty: the default. */
  cardRevealOrigins: string[];
  /** Where the platform's customers receive UMA payments: `$user@<umaDomain>`. */
  umaDomain: string;
  createdAt: string;
  updatedAt: string;
}

/** What a counterparty may be asked to provide about its customer. */
export type CustomerInfoFieldName =
  | "FULL_NAME"
  | "BIRTH_DATE"
  | "NATIONALITY"
  | "PHONE_NUMBER"
  | "EMAIL"
  | "POSTAL_ADDRESS"
  | "TAX_ID"
  | "REGISTRATION_NUMBER"
  | "USER_TYPE"
  | "COUNTRY_OF_RESIDENCE"
  | "ACCOUNT_IDENTIFIER"
  | "FI_LEGAL_ENTITY_NAME"
  | "FI_ADDRESS"
  | "PURPOSE_OF_PAYMENT"
  | "ULTIMATE_INSTITUTION_COUNTRY"
  | "IDENTIFIER"
  | "BUSINESS_TYPE"
  | "COMPANY_LEGAL_NAME"
  | "ID_TYPE"
  | "ID_NUMBER";

export interface CounterpartyFieldDefinition {
  name: CustomerInfoFieldName;
  mandatory: boolean;
}

/** A supported currency and its settings for UMA payments (amounts in the currency's minor units). */
export interface PlatformCurrencyConfig {
  currencyCode: string;
  minAmount: number;
  maxAmount: number;
  /** What a UMA sender paying the platform's customers in this currency must (or may) say about the payer. */
  requiredCounterpartyFields: CounterpartyFieldDefinition[];
  /** INCOMING: customers receive UMA payments in it; OUTGOING: they send UMA payments from it. */
  enabledTransactionTypes: ("INCOMING" | "OUTGOING")[];
}

/** How a cardholder confirms adding a card to a digital wallet. */
export interface CardTokenization2faConfig {
  methods: ("EMAIL_OTP" | "SMS_OTP")[];
}

/** At least one field. */
export interface UpdateConfigBody {
  name?: string;
  /** Replaces the whole list; each currency once. */
  supportedCurrencies?: PlatformCurrencyConfig[];
  sandboxSkipVerificationPaperwork?: boolean;
  /** Replaces the whole list; `[]` removes every platform fee. */
  feeConfigs?: RailFeeConfig[];
  /** An absolute http(s) URL, https outside the sandbox; `null` clears it. Setting it sends one TEST event. */
  webhookEndpoint?: string | null;
  /** Applies to cards issued afterwards; `null` turns digital-wallet tokenization off. */
  cardTokenization2faConfig?: CardTokenization2faConfig | null;
  /** Each given key replaces the stored one, others are kept. `sandboxProcessingDelayMs`: 0–60,000, sandbox only. */
  walletAuthConfig?: {
    /** Embedded-wallet passkeys: assertions must name `rpId` and come from one of `origins`. */
    passkey?: { rpId: string; origins: string[] };
    /** OIDC providers whose ID tokens OAUTH credentials accept. */
    oidcProviders?: { issuer: string; audiences: string[]; jwksUri?: string }[];
    sandboxProcessingDelayMs?: number;
  };
  /** An absolute http(s) URL (https outside the sandbox); `null` turns invitations off. */
  invitationBaseUrl?: string | null;
  /** Each `scheme://host[:port]`, https outside the sandbox; replaces the list, `[]` resets it. */
  cardRevealOrigins?: string[];
  /** The platform's UMA domain (a DNS name, no port); `null` returns to the default. */
  umaDomain?: string | null;
}

/** PaymentRail (conventions §3.5). */
export type PaymentRail =
  | "ACH"
  | "ACH_SAME_DAY"
  | "ACH_COLOMBIA"
  | "BANK_TRANSFER"
  | "BRE_B"
  | "CIPS"
  | "FAST"
  | "FASTER_PAYMENTS"
  | "FEDNOW"
  | "INSTAPAY"
  | "MOBILE_MONEY"
  | "NEFT"
  | "PAYNOW"
  | "PESONET"
  | "PIX"
  | "RTGS"
  | "RTP"
  | "SEPA"
  | "SEPA_INSTANT"
  | "SPEI"
  | "SWIFT"
  | "UNIONPAY"
  | "UPI"
  | "WIRE";

/** A rail a platform fee can be set for: every PaymentRail, plus `INTERNAL` (internal-account transfers). */
export type FeeRail = "INTERNAL" | PaymentRail;

/** The platform fee of one rail: basis points of the total sent, a fixed amount in USD cents, or both. */
export interface RailFeeConfig {
  rail: FeeRail;
  variableRateBps?: number;
  fixedAmount?: number;
}
