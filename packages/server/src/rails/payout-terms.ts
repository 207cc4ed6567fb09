import { MAX_AMOUNT } from "../core/money.js";
import { type FeeSchedule, NO_FEE } from "./fees.js";
import { maxTransactionAmount } from "./limits.js";

/** A platform's fee for one rail (platform/schemas.ts RailFeeConfig). */
export interface RailFee {
  rail: string;
  variableRateBps?: number;
  fixedAmount?: number;
}

/** The withdrawal fee: the per-quote override, else the rail's feeConfigs entry (USD sources only). */
function railFee(override: number | undefined, feeConfigs: RailFee[], rail: string): FeeSchedule {
  if (override !== undefined) return { variableRateBps: 0, fixedAmount: override };
  const config = feeConfigs.find((c) => c.rail === rail);
  return config
    ? { variableRateBps: config.variableRateBps ?? 0, fixedAmount: config.fixedAmount ?? 0 }
    : NO_FEE;
}

/**
 * The terms a payout over `rail` is priced at, by a quote and by the exchange-rate listing alike: the
 * rail's fee (USD sources only) and the maximum (ACH_SAME_DAY's own cap replaces the general one).
 */
export function payoutTerms(
  request: { platformFeeOverride?: number },
  sending: string,
  feeConfigs: RailFee[],
  rail: string,
): { platformFee: FeeSchedule; maxTotalSendingAmount: number } {
  return {
    platformFee: sending === "USD" ? railFee(request.platformFeeOverride, feeConfigs, rail) : NO_FEE,
    maxTotalSendingAmount: rail === "ACH_SAME_DAY" ? MAX_AMOUNT : maxTransactionAmount(sending),
  };
}
