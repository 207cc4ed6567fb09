import { type Static, Type } from "typebox";
import { Query } from "../core/http/pagination.js";
import { Currency, DateTime } from "../core/http/schemas.js";
import { RailFeeConfig } from "../platform/schemas.js";

const CurrencyCode = (description: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 16, description }));

export const ExchangeRatesQuery = Query({
  sourceCurrency: CurrencyCode("Only rates from this currency code."),
  destinationCurrency: CurrencyCode("Only rates to this currency code."),
});
export type ExchangeRatesQuery = Static<typeof ExchangeRatesQuery>;

/** One cached rate (docs/decisions/rates-volume.md). */
export const ExchangeRate = Type.Object({
  sourceCurrency: Currency,
  destinationCurrency: Currency,
  rate: Type.Number({
    exclusiveMinimum: 0,
    description: "Destination major units per source major unit; at most 10 significant digits, exact.",
  }),
  platformFees: Type.Array(RailFeeConfig, {
    description: "The platform's feeConfigs, charged on quotes from a USD source; empty for other sources.",
  }),
  fetchedAt: DateTime(),
  expiresAt: DateTime({ description: "The same rate is served until then (5 minutes, platform clock)." }),
});
export type ExchangeRate = Static<typeof ExchangeRate>;

export const ExchangeRateList = Type.Object({ data: Type.Array(ExchangeRate) });
