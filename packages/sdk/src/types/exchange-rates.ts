/** Exchange rate wire types, mirroring packages/server/src/exchange-rates/schemas.ts. Re-exported from index.ts. */
import type { Currency } from "./common.js";
import type { PaymentRail } from "./platform.js";

/** `GET /exchange-rates` query (the hosted API's `getExchangeRates`). */
export interface ExchangeRateParams {
  sourceCurrency?: string;
  /** One code, or several: sent as a repeated parameter (`destinationCurrency=MXN&destinationCurrency=INR`). */
  destinationCurrency?: string | string[];
  /** Sending-currency minor units each rate is priced for; the server's default is 10000. */
  sendingAmount?: number;
}

/** The fees a quote of `sendingAmount` is charged, in the sending currency's minor units. */
export interface ExchangeRateFees {
  fixed: number;
  total: number;
}

/**
 * One corridor over one destination rail at the platform's cached rate (served 5 minutes from
 * `updatedAt`, platform clock): what a quote of `sendingAmount` to an account paid over
 * `destinationPaymentRail` delivers and charges.
 */
export interface ExchangeRate {
  sourceCurrency: Currency;
  sendingAmount: number;
  minSendingAmount: number;
  maxSendingAmount: number;
  destinationCurrency: Currency;
  destinationPaymentRail: PaymentRail;
  /** floor((sendingAmount − fees.total) × exchangeRate), receiving minor units. */
  receivingAmount: number;
  /** Destination major units per source major unit. */
  exchangeRate: number;
  fees: ExchangeRateFees;
  updatedAt: string;
}

/** `GET /exchange-rates` response. */
export interface ExchangeRateListResponse {
  data: ExchangeRate[];
}
