import { type Static, Type } from "typebox";
import { Query } from "../core/http/pagination.js";
import { Currency, DateTime, StringEnum } from "../core/http/schemas.js";
import { currencyCodes, MAX_AMOUNT } from "../core/money.js";
import { paymentRails } from "../rails/payment-rails.js";

const CurrencyCode = (options: { description?: string } = {}) =>
  Type.String({ minLength: 1, maxLength: 16, ...options });

/** The amount each listed rate is priced for when `sendingAmount` is not given (the hosted API's default). */
export const DEFAULT_SENDING_AMOUNT = 10_000;

/** `GET /exchange-rates` query, as the hosted API's `getExchangeRates`. */
export const ExchangeRatesQuery = Query({
  sourceCurrency: Type.Optional(CurrencyCode({ description: "Only rates from this currency code." })),
  destinationCurrency: Type.Optional(
    Type.Union(
      [CurrencyCode(), Type.Array(CurrencyCode(), { minItems: 1, maxItems: currencyCodes.length })],
      {
        description:
          "Only rates to these currency codes: repeat the parameter for several (`destinationCurrency=MXN&destinationCurrency=INR`).",
      },
    ),
  ),
  sendingAmount: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_AMOUNT,
      default: DEFAULT_SENDING_AMOUNT,
      description: "Sending-currency minor units each rate is priced for (fees and receivingAmount).",
    }),
  ),
});
export type ExchangeRatesQuery = Static<typeof ExchangeRatesQuery>;

const MinorUnits = (description: string) => Type.Integer({ minimum: 0, description });

/** The fees a quote of `sendingAmount` is charged, in the sending currency's minor units. */
export const ExchangeRateFees = Type.Object({
  fixed: MinorUnits("The fixed part of the fees."),
  total: MinorUnits("Every fee: the fixed part plus the basis-points part (feesIncluded of the quote)."),
});
export type ExchangeRateFees = Static<typeof ExchangeRateFees>;

/**
 * One corridor over one destination rail at the platform's cached rate (docs/guides/exchange-rates-daily-volume.md):
 * what a quote locking `sendingAmount` on the SENDING side to an external account paid over
 * `destinationPaymentRail` would deliver and charge now.
 */
export const ExchangeRate = Type.Object({
  sourceCurrency: Currency,
  sendingAmount: MinorUnits("The amount priced, fees included (the quote's totalSendingAmount)."),
  minSendingAmount: MinorUnits("The smallest sendingAmount that delivers at least one receiving minor unit."),
  maxSendingAmount: MinorUnits(
    "The largest sendingAmount a quote accepts over this rail (single-transaction maximum, corridor maximum, rail cap).",
  ),
  destinationCurrency: Currency,
  destinationPaymentRail: StringEnum(paymentRails),
  receivingAmount: MinorUnits(
    "floor((sendingAmount − fees.total) × exchangeRate) in receiving minor units (the quote's totalReceivingAmount).",
  ),
  exchangeRate: Type.Number({
    exclusiveMinimum: 0,
    description: "Destination major units per source major unit; at most 10 significant digits, exact.",
  }),
  fees: ExchangeRateFees,
  updatedAt: DateTime({
    description: "When the rate was fetched; it is served for 5 minutes from then (platform clock).",
  }),
});
export type ExchangeRate = Static<typeof ExchangeRate>;

export const ExchangeRateListResponse = Type.Object({ data: Type.Array(ExchangeRate) });
export type ExchangeRateListResponse = Static<typeof ExchangeRateListResponse>;
