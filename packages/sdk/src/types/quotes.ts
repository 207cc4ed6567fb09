/**
 * Quote wire types, mirroring packages/server/src/quotes/schemas.ts (conventions §3.3): what
 * `sca.authorizeQuote` answers and what an `AgentClient` creates. Re-exported from index.ts.
 */

import type { Currency } from "./common.js";
import type { PaymentRail } from "./platform.js";
import type { ScaChallenge, ScaFactor } from "./sca.js";

/** `ACCOUNT` needs `accountId`; `REALTIME_FUNDING` needs `currency`. */
export interface QuoteSource {
  sourceType: "ACCOUNT" | "REALTIME_FUNDING";
  accountId?: string;
  customerId?: string;
  currency?: string;
  cryptoNetwork?: string;
}

/** `ACCOUNT` needs `accountId`; `UMA_ADDRESS` needs `umaAddress` and `currency`. */
export interface QuoteDestination {
  destinationType: "ACCOUNT" | "UMA_ADDRESS";
  accountId?: string;
  umaAddress?: string;
  currency?: string;
  paymentRail?: PaymentRail;
}

export interface CreateQuoteBody {
  source: QuoteSource;
  destination: QuoteDestination;
  lockedCurrencySide: "SENDING" | "RECEIVING";
  lockedCurrencyAmount: number;
  immediatelyExecute?: boolean;
  description?: string;
  remittanceInformation?: string;
  purposeOfPayment?: string;
  platformFeeOverride?: number;
  lookupId?: string;
  senderCustomerInfo?: object;
  scaFactor?: ScaFactor;
}

/** One way to pay a REALTIME_FUNDING quote: the platform's bank account (with `reference`) or a deposit address. */
export interface PaymentInstructions {
  instructionsNotes?: string;
  isPlatformAccount?: boolean;
  /** Discriminated by `accountType`: `USD_ACCOUNT` (accountNumber, routingNumber, paymentRails, reference…) or a `*_WALLET` (`address`). */
  accountOrWalletInfo: { accountType: string; payloadToSign?: string };
}

/** `POST /sandbox/send`: pays a REALTIME_FUNDING quote; `currencyAmount` defaults to its `totalSendingAmount`. */
export interface SandboxSendBody {
  quoteId: string;
  currencyCode: string;
  currencyAmount?: number;
}

export interface ExecuteQuoteBody {
  scaFactor?: ScaFactor;
}

export type QuoteStatus =
  | "PENDING"
  | "PENDING_AUTHORIZATION"
  | "PROCESSING"
  | "COMPLETED"
  | "FAILED"
  | "EXPIRED";

/** A quote, id `Quote:<uuid>`; `source` and `destination` are as created. */
export interface Quote {
  id: string;
  status: QuoteStatus;
  createdAt: string;
  expiresAt: string;
  source: object;
  destination: object;
  sendingCurrency: Currency;
  receivingCurrency: Currency;
  lockedCurrencySide: "SENDING" | "RECEIVING";
  lockedCurrencyAmount: number;
  totalSendingAmount: number;
  totalReceivingAmount: number;
  exchangeRate: number;
  feesIncluded: number;
  platformFeesIncluded: number;
  platformFeeOverride?: number;
  /** Reserved at creation; `GET /transactions/{id}` finds the transaction once the quote is executed. */
  transactionId: string;
  paymentRail?: PaymentRail;
  railSelectionMode?: "AUTO" | "MANUAL";
  description?: string;
  remittanceInformation?: string;
  purposeOfPayment?: string;
  /** REALTIME_FUNDING: where and how to send the money that funds the quote. */
  paymentInstructions?: PaymentInstructions[];
  /** PENDING_AUTHORIZATION: the per-payment SCA challenge to answer with `sca.authorizeQuote`. */
  scaChallenge?: ScaChallenge;
}
