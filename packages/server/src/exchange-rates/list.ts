import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, type FieldError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { currency, currencyCodes, isKnownCurrency, MAX_AMOUNT } from "../core/money.js";
import type { RailFeeConfig } from "../platform/schemas.js";
import { findPlatform } from "../platform/store.js";
import { corridorFor, type RailRoute } from "../rails/corridors.js";
import type { Price } from "../rails/fees.js";
import { maxTransactionAmount } from "../rails/limits.js";
import { payoutTerms } from "../rails/payout-terms.js";
import { railCap } from "../rails/rail-selection.js";
import { priceCrossCurrency } from "./pricing.js";
import { type CachedRate, cachedRates } from "./rates.js";
import { DEFAULT_SENDING_AMOUNT, type ExchangeRate, type ExchangeRatesQuery } from "./schemas.js";
import type { Pair } from "./store.js";

/** Every unknown currency code of the query, one FieldError each, as `400 INVALID_CURRENCY`. */
function checkCurrencies(source: string | undefined, destinations: string[] | undefined, many: boolean) {
  const errors: FieldError[] = [];
  const check = (field: string, code: string) => {
    if (!isKnownCurrency(code)) errors.push({ field, message: `${code} is not a known currency code` });
  };
  if (source !== undefined) check("sourceCurrency", source);
  destinations?.forEach((code, i) => {
    check(many ? `destinationCurrency[${i}]` : "destinationCurrency", code);
  });
  if (errors.length > 0) {
    throw new ApiError("INVALID_CURRENCY", {
      reason: errors.length === 1 ? `Unknown currency: ${errors[0]?.message}.` : "Unknown currency codes.",
      details: { errors },
    });
  }
}

/**
 * The pairs a list asks for: every ordered pair of distinct known currencies whose destination is paid
 * out by a corridor (a rate row names a destination rail), narrowed by the filters, sorted by code.
 */
function requestedPairs(query: ExchangeRatesQuery): Pair[] {
  const many = Array.isArray(query.destinationCurrency);
  const filter =
    query.destinationCurrency === undefined
      ? undefined
      : many
        ? (query.destinationCurrency as string[])
        : [query.destinationCurrency as string];
  checkCurrencies(query.sourceCurrency, filter, many);
  const codes = [...currencyCodes].sort();
  const sources = query.sourceCurrency ? [query.sourceCurrency] : codes;
  const destinations = (filter ? codes.filter((code) => filter.includes(code)) : codes).filter((code) =>
    corridorFor(code),
  );
  return sources.flatMap((source) =>
    destinations
      .filter((destination) => destination !== source)
      .map((destination) => ({ source, destination })),
  );
}

/** A price, or null where the quote would be refused (ApiError: out of range, above a maximum). */
function tryPrice(price: () => Price): Price | null {
  try {
    return price();
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/**
 * What a payout quote of `sendingAmount` (SENDING side, no platformFeeOverride) over `route` would be
 * priced at: the same terms (rails/payout-terms.ts payoutTerms: the rail's feeConfigs entry on USD sources,
 * the sending maximum) and the same arithmetic (priceCrossCurrency). The receiving side is limited by the
 * rail's cap and, except on ACH_SAME_DAY, the corridor's maximum, as the quote checks them.
 * Null when no amount is accepted, or `sendingAmount` is outside [minSendingAmount, maxSendingAmount].
 */
function railRate(
  rate: CachedRate,
  route: RailRoute,
  sendingAmount: number,
  feeConfigs: RailFeeConfig[],
  now: Date,
): ExchangeRate | null {
  const terms = payoutTerms({}, rate.source, feeConfigs, route.rail);
  const sourceCurrency = currency(rate.source);
  const destinationCurrency = currency(rate.destination);
  const price = (side: "SENDING" | "RECEIVING", amount: number, maxTotalSendingAmount: number) =>
    tryPrice(() =>
      priceCrossCurrency({
        lockedCurrencySide: side,
        lockedCurrencyAmount: amount,
        platformFee: terms.platformFee,
        maxTotalSendingAmount,
        rate: rate.rate,
        decimals: { sending: sourceCurrency.decimals, receiving: destinationCurrency.decimals },
      }),
    );
  const corridorMaximum = route.rail === "ACH_SAME_DAY" ? MAX_AMOUNT : maxTransactionAmount(rate.destination);
  const receivingCap = Math.min(railCap(route, rate.destination, now) ?? MAX_AMOUNT, corridorMaximum);
  const smallest = price("RECEIVING", 1, MAX_AMOUNT);
  if (!smallest) return null;
  // The largest amount delivering at most the cap is one less than the smallest delivering more.
  const beyondCap = receivingCap < MAX_AMOUNT ? price("RECEIVING", receivingCap + 1, MAX_AMOUNT) : null;
  const minSendingAmount = smallest.totalSendingAmount;
  const maxSendingAmount = Math.min(
    terms.maxTotalSendingAmount,
    beyondCap ? beyondCap.totalSendingAmount - 1 : MAX_AMOUNT,
  );
  if (sendingAmount < minSendingAmount || sendingAmount > maxSendingAmount) return null;
  const priced = price("SENDING", sendingAmount, terms.maxTotalSendingAmount);
  if (!priced || priced.totalReceivingAmount > receivingCap) return null;
  return {
    sourceCurrency,
    sendingAmount,
    minSendingAmount,
    maxSendingAmount,
    destinationCurrency,
    destinationPaymentRail: route.rail,
    receivingAmount: priced.totalReceivingAmount,
    exchangeRate: Number(rate.text),
    fees: {
      fixed: priced.feesIncluded === 0 ? 0 : terms.platformFee.fixedAmount,
      total: priced.feesIncluded,
    },
    updatedAt: rate.fetchedAt.toISOString(),
  };
}

/**
 * `GET /exchange-rates`: for each corridor with a cached rate (5 minutes, platform clock) and each rail
 * of the destination's corridor, what a quote of `sendingAmount` delivers and charges, platform fees
 * included. A corridor without a rate, or a rail that would refuse `sendingAmount`, is not listed.
 */
export async function listExchangeRates(
  deps: Deps,
  caller: Caller,
  query: ExchangeRatesQuery,
): Promise<{ data: ExchangeRate[] }> {
  const pairs = requestedPairs(query);
  const sendingAmount = query.sendingAmount ?? DEFAULT_SENDING_AMOUNT;
  return deps.db.transaction(async (tx) => {
    const now = nowFor(deps, caller);
    const platform = await findPlatform(tx, caller.platformId);
    if (!platform) throw new ApiError("PLATFORM_NOT_FOUND");
    const rates = await cachedRates(tx, caller.platformId, pairs, now);
    return {
      data: rates.flatMap((rate) =>
        (corridorFor(rate.destination)?.rails ?? []).flatMap(
          (route) => railRate(rate, route, sendingAmount, platform.fee_configs, now) ?? [],
        ),
      ),
    };
  });
}
