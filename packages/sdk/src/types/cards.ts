/**
 * Card wire types, mirroring packages/server/src/cards/schemas.ts and management-schemas.ts field for field
 * (conventions §6), plus the sandbox card simulations (§6.5). Re-exported from index.ts.
 */
import type { CurrencyAmount, SortedPageParams } from "./common.js";

export type CardStatus = "PROCESSING" | "ACTIVE" | "FROZEN" | "CLOSED";
export type PinStatus = "NOT_SET" | "OK" | "BLOCKED";
export type CardStatusReason = "ISSUER_REJECTED" | "CLOSED_BY_PLATFORM";

/** A virtual card (conventions §6.1), id `Card:<uuid>`. Never carries a PAN, PIN or reveal URL. */
export interface Card {
  id: string;
  /** The cardholder's `Customer:<uuid>`. */
  cardholderId: string;
  /** The card's uuid when none was given at create. */
  platformCardId: string;
  status: CardStatus;
  /** null unless `CLOSED`. */
  statusReason: CardStatusReason | null;
  pinStatus: PinStatus;
  cardCapabilities: { supportsDigitalWalletTokenization: boolean };
  brand: "VISA" | "MASTERCARD";
  form: "VIRTUAL";
  last4: string;
  /** 1–12. */
  expMonth: number;
  expYear: number;
  /** InternalAccount ids in priority order: the first eligible one whose balance covers an amount is charged. */
  fundingSources: string[];
  /** Minor units; exactly this amount is still allowed. null: no per-transaction cap. */
  maxSpendPerTransaction: number | null;
  /** Taken from the funding sources. */
  currency: string;
  processorRef: string;
  issuerRef: string;
  createdAt: string;
  updatedAt: string;
}

/** `POST /cards`: the card starts `PROCESSING`; the issuer activates (or rejects) it shortly after. */
export interface CreateCardBody {
  /** A KYC-`APPROVED` customer. */
  cardholderId: string;
  form: "VIRTUAL";
  /** 1–10 distinct accounts of the cardholder, in one currency, in priority order. */
  fundingSources: string[];
  platformCardId?: string;
  /** Minor units, ≥ 1. */
  maxSpendPerTransaction?: number;
  /** Passed to the issuer for 3-D Secure; never stored. */
  threeDSecurePassword?: string;
}

/**
 * `PATCH /cards/{id}`: at least one field. `CLOSED` cannot be combined with another field and is final;
 * `fundingSources` replaces the whole list; `maxSpendPerTransaction: null` removes the cap.
 */
export interface UpdateCardBody {
  status?: "ACTIVE" | "FROZEN" | "CLOSED";
  fundingSources?: string[];
  maxSpendPerTransaction?: number | null;
}

/** Filters of `GET /cards` (conventions §6.2). */
export interface CardListParams extends SortedPageParams {
  cardholderId?: string;
  /** Cards with this account among their funding sources. */
  accountId?: string;
  platformCardId?: string;
  status?: CardStatus;
}

/** `POST /cards/{id}/reveal`: a single-use iframe URL showing the PAN, valid 5 minutes; call it right before rendering. */
export interface RevealLink {
  panEmbedUrl: string;
  expiresAt: string;
}

export type WalletProvider = "APPLE_PAY" | "GOOGLE_PAY";

/** `POST /cards/{id}/tokenize`: the values the wallet SDK hands over for in-app provisioning. */
export interface TokenizeCardBody {
  walletProvider: WalletProvider;
  /** 1–128 characters. */
  deviceId: string;
  /** The wallet's P-256 encryption key, uncompressed (65 bytes), hex: `04` then 128 hex digits. */
  walletPublicKey: string;
}

/** The encrypted provisioning payload to pass back to the wallet SDK. */
export interface TokenizeCardResult {
  walletProvider: WalletProvider;
  /** Base64: the issuer's approval of this provisioning, for the wallet. */
  activationData: string;
  /** Hex: the HPKE ciphertext of the card details. */
  encryptedPassData: string;
  /** Hex: the HPKE encapsulated key, uncompressed P-256. */
  ephemeralPublicKey: string;
}

// --- Card transactions (server: src/cards/schemas.ts CardTransaction; conventions §6.3) ---

export type CardTransactionStatus =
  | "AUTHORIZED"
  | "PARTIALLY_SETTLED"
  | "SETTLED"
  | "VOIDED"
  | "EXCEPTION"
  | "DECLINED";

export type CardDeclinedReason =
  | "CARD_NOT_ACTIVE"
  | "SPEND_LIMIT_EXCEEDED"
  | "INSUFFICIENT_FUNDS"
  | "NO_ELIGIBLE_FUNDING_SOURCE"
  | "BLOCKED"
  | "UNSUPPORTED_NETWORK"
  | "OTHER";

/** Where a card was used (server schema `Merchant`); `city` and `state` when the network reports them. */
export interface CardMerchant {
  descriptor: string;
  /** 4 digits. */
  mcc?: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
  city?: string;
  state?: string;
}

/** Funding pulls of a card transaction; bare integers in minor units. */
export interface CardPullSummary {
  count: number;
  totalAmount: number;
  /** Pulls not landed yet; absent when 0. */
  pendingCount?: number;
}

/** Clearings or returns posted on a card transaction; `totalAmount` in minor units. */
export interface CardPostingSummary {
  count: number;
  totalAmount: number;
}

/**
 * A card transaction (`type` `CARD` in `GET /transactions`, and every `CARD_TRANSACTION.*` payload), id
 * `CardTransaction:<uuid>`. A merchant return is a row of its own: `direction` `CREDIT`, `status`
 * `SETTLED` and `originalTransactionId` naming the purchase, whose `refundedAmount` grows.
 */
export interface CardTransaction {
  id: string;
  type: "CARD";
  cardId: string;
  /** The funding account charged. */
  accountId: string;
  /** The cardholder. */
  customerId: string;
  platformCustomerId?: string;
  issuerTransactionToken: string;
  /** `AUTHORIZED`: approved, hold placed, nothing cleared yet. */
  status: CardTransactionStatus;
  /** Purchases are `DEBIT`; refund rows and merchant credits are `CREDIT`. */
  direction: "DEBIT" | "CREDIT";
  merchant: CardMerchant;
  authorizedAmount: CurrencyAmount;
  /** Present once a clearing has posted (the network amount). */
  settledAmount?: CurrencyAmount;
  /** Present once a return has posted. */
  refundedAmount?: CurrencyAmount;
  /** Refund rows only: the purchase. */
  originalTransactionId?: string;
  /** `DECLINED` rows only. */
  cardDeclinedReason?: CardDeclinedReason;
  pullSummary: CardPullSummary;
  settlementSummary: CardPostingSummary;
  refundSummary: CardPostingSummary;
  authorizedAt: string;
  lastEventAt: string;
  /** Equal to `authorizedAt`. */
  createdAt: string;
  updatedAt: string;
}

// --- Sandbox card simulations (conventions §6.5) ---

/** Body of the authorization-like simulations: a new row of `amount` minor units at `merchant`. */
export interface SimulateAuthorizationBody {
  /** > 0, minor units. */
  amount: number;
  currency: { code: string };
  merchant: CardMerchant;
}

/** A clearing or a return against a row; `effectiveAt` may date it back by up to the settlement lag. */
export interface SimulatePostingBody {
  cardTransactionId: string;
  /** Minor units: ≥ 0 for a clearing, > 0 for a return. */
  amount: number;
  /** Date-time with an offset: not after now, not before now minus the settlement lag. */
  effectiveAt?: string;
}

/**
 * The body of each `POST /sandbox/cards/{id}/simulate/<op>`. Descriptor suffixes pick the outcome of an
 * authorization: `002` INSUFFICIENT_FUNDS, `003` CARD_NOT_ACTIVE, `007`/`008`/`009` BLOCKED,
 * UNSUPPORTED_NETWORK, OTHER (all `DECLINED`); `005` approved with a late pull; `006` first clearing ends
 * in `EXCEPTION`.
 */
export interface CardSimulationBodies {
  /** A new `DEBIT` row: `AUTHORIZED` with a hold, or `DECLINED` with a reason. */
  authorization: SimulateAuthorizationBody;
  /** Posts a debit against an `AUTHORIZED` or `PARTIALLY_SETTLED` row; `0` voids or closes it. */
  clearing: SimulatePostingBody;
  /** A merchant return against a cleared purchase: opens a `CREDIT` refund row. */
  return: SimulatePostingBody;
  /** Takes back a return; `cardTransactionId` is the refund row's id. */
  return_reversal: { cardTransactionId: string };
  /** Resizes the open hold to the new total `amount`. */
  authorization_advice: { cardTransactionId: string; amount: number };
  /** A zero-amount authorization: no hold; decline rules apply. */
  balance_inquiry: { merchant: CardMerchant };
  /** A `CREDIT` row, `AUTHORIZED`; its clearing credits the account. */
  credit_authorization: SimulateAuthorizationBody;
  /** Like `credit_authorization`, already approved by the network: no decline checks. */
  credit_authorization_advice: SimulateAuthorizationBody;
  /** Single message: approved and cleared at once (`SETTLED`, one debit). */
  financial_authorization: SimulateAuthorizationBody;
  /** Single-message credit (`CREDIT` `SETTLED`, one credit). */
  financial_credit_authorization: SimulateAuthorizationBody;
}

export type CardSimulationOp = keyof CardSimulationBodies;

/** Every card simulation answers `202` with the network token and the row created or affected. */
export interface CardSimulationResult {
  issuerTransactionToken: string;
  cardTransactionId: string;
}

/** `POST /sandbox/cards/{id}/simulate/pin_attempt`: a PIN entered at a terminal. */
export interface PinAttemptResult {
  correct: boolean;
  pinStatus: PinStatus;
  /** Wrong attempts left before the PIN is `BLOCKED` (3 in a row block it); 0 once it is. */
  remainingAttempts: number;
}
