/** Exchange rate wire types, mirroring packages/server/src/exchange-rates/schemas.ts. Re-exported from index.ts. */
import type { Currency } from "./common.js";
import type { RailFeeConfig } from "./platform.js";

export interface ExchangeRateParams {
  sourceCurrency?: string;
  destinationCurrency?: string;
}

/** One cached rate: the same rate is served until `expiresAt` (5 minutes, platform clock). */
export interface ExchangeRate {
  sourceCurrency: Currency;
  destinationCurrency: Currency;
  /** Destination major units per source major unit. */
  rate: number;
  /** The platform's feeConfigs, charged on quotes from a USD source; empty for other sources. */
  platformFees: RailFeeConfig[];
  fetchedAt: string;
  expiresAt: string;
}
