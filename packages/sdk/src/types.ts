/**
 * Wire types of the paysvc API (version 2025-10-13). Each interface mirrors the server's TypeBox schema of
 * the same name (packages/server/src/<area>/schemas.ts) field for field, optional where the schema says
 * `Type.Optional`. They are written out rather than derived so the published SDK carries no dependency on
 * the server or on TypeBox.
 */

/** Currency metadata (conventions §1.4). */
export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

/** An amount in integer minor units with its currency. */
export interface CurrencyAmount {
  amount: number;
  currency: Currency;
}

/** One invalid field of a `400 INVALID_INPUT` answer, listed in `details.errors`. */
export interface FieldError {
  field: string;
  constraint?: {
    format?: string;
    pattern?: string;
    enum?: string[];
    minLength?: number;
    maxLength?: number;
  };
  message: string;
}

/** Every error body: exactly `{code, reason, details?}` (conventions §1.7). */
export interface ErrorBody {
  code: string;
  reason: string;
  details?: Record<string, unknown>;
}

/** `limit` (1–100, default 20) and `cursor` of every paginated list (conventions §1.6). */
export interface PageParams {
  limit?: number;
  cursor?: string;
}

/** Lists sorted by `createdAt` also take `sortOrder` (default `desc`). */
export interface SortedPageParams extends PageParams {
  sortOrder?: "asc" | "desc";
}

/** One page of a list; `nextCursor` is present only when `hasMore` is true. */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

/** An unpaginated list (`GET /customers/agreements`, `GET /platform/internal-accounts`). */
export interface DataList<T> {
  data: T[];
}

export type * from "./agent-types.js";
export type * from "./card-types.js";
export type * from "./customer-types.js";
export type * from "./exchange-rate-types.js";
export type * from "./invitation-types.js";
export type * from "./ledger-types.js";
export type * from "./quote-types.js";
export type * from "./sca-types.js";
export type * from "./stablecoin-types.js";

// --- API tokens (server: src/auth/schemas.ts) ---

export type Permission = "VIEW" | "TRANSACT" | "MANAGE";

export interface CreateTokenBody {
  name: string;
  permissions: Permission[];
}

export interface ApiToken {
  id: string;
  name: string;
  permissions: Permission[];
  clientId: string;
  createdAt: string;
  updatedAt: string;
}

/** The create answer: the only time `clientSecret` is returned. */
export interface CreatedApiToken extends ApiToken {
  clientSecret: string;
}

// --- Internal accounts (server: src/customers/schemas.ts InternalAccount) ---

export type InternalAccountType = "INTERNAL_FIAT" | "INTERNAL_CRYPTO" | "EMBEDDED_WALLET";
export type InternalAccountStatus = "PENDING" | "ACTIVE" | "CLOSED" | "FROZEN" | "FAILED";

export interface FundingPaymentInstruction {
  instructionsNotes: string;
  accountOrWalletInfo: {
    accountType: string;
    accountNumber: string;
    routingNumber: string;
    bankName: string;
    reference: string;
  };
}

export interface InternalAccount {
  id: string;
  /** Absent for platform-owned accounts. */
  customerId?: string;
  type: InternalAccountType;
  status: InternalAccountStatus;
  /** Available: `totalBalance` minus open card-authorization holds. */
  balance: CurrencyAmount;
  /** Ledger balance. */
  totalBalance: CurrencyAmount;
  fundingPaymentInstructions: FundingPaymentInstruction[];
  /** `EMBEDDED_WALLET` only. */
  privateEnabled?: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Filters of `GET /platform/internal-accounts` (not paginated). */
export interface InternalAccountFilters {
  /** Currency code, e.g. `USD`. */
  currency?: string;
  type?: InternalAccountType;
}

/** Filters of `GET /customers/internal-accounts`. */
export interface CustomerInternalAccountListParams extends InternalAccountFilters, SortedPageParams {
  customerId?: string;
}

// --- Platform configuration (server: src/platform/schemas.ts) ---

export interface PlatformConfig {
  id: string;
  name: string;
  environment: "SANDBOX" | "PRODUCTION";
  webhookEndpoint: string | null;
  supportedCurrencies: string[];
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
  createdAt: string;
  updatedAt: string;
}

/** How a cardholder confirms adding a card to a digital wallet. */
export interface CardTokenization2faConfig {
  methods: ("EMAIL_OTP" | "SMS_OTP")[];
}

/** At least one field. */
export interface UpdateConfigBody {
  name?: string;
  supportedCurrencies?: string[];
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
