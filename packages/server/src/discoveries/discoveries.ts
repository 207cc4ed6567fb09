import { ApiError } from "../core/errors/api-error.js";
import { isKnownCurrency } from "../core/money.js";
import { corridors } from "../rails/corridors.js";
import { providersIn } from "../rails/providers.js";
import type { Discovery, DiscoveryList, DiscoveryQuery } from "./schemas.js";

/**
 * `GET /discoveries?country=&currency=`: the banks and wallet providers payouts can reach, per corridor
 * and country, with the corridor's rails into that country (from the corridor table, rails/corridors.ts).
 * An unknown currency code is `400 INVALID_CURRENCY`; a filter nothing matches is an empty list.
 */
export function listDiscoveries(query: DiscoveryQuery): DiscoveryList {
  if (query.currency !== undefined && !isKnownCurrency(query.currency))
    throw new ApiError("INVALID_CURRENCY", { reason: `Unknown currency ${query.currency}.` });
  const data: Discovery[] = [];
  for (const corridor of corridors) {
    if (query.currency !== undefined && corridor.currency !== query.currency) continue;
    const countries = [...new Set(corridor.rails.flatMap((route) => route.market.countries))];
    for (const country of countries) {
      if (query.country !== undefined && country !== query.country) continue;
      const paymentRails = corridor.rails
        .filter((route) => route.market.countries.includes(country))
        .map((route) => route.rail);
      for (const name of providersIn(country))
        data.push({ bankName: name, displayName: name, country, currency: corridor.currency, paymentRails });
    }
  }
  return { data };
}
