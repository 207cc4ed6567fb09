import type { ApiResult, RequestOptions, RequestSender } from "../core/request.js";
import type { DataList, ExchangeRate, ExchangeRateParams } from "../types/index.js";

/** How long the server serves a fetched rate (docs/guides/exchange-rates-daily-volume.md): 5 minutes from `updatedAt`. */
const RATE_TTL_MS = 5 * 60 * 1000;

/** `exchangeRates.list` options: the request options, plus `refresh` to skip the local cache. */
export interface ExchangeRateListOptions extends RequestOptions {
  /** Ask the server even when a cached answer has not expired (5 minutes after its oldest `updatedAt`). */
  refresh?: boolean;
}

interface CacheEntry {
  list: ApiResult<DataList<ExchangeRate>>;
  /** 5 minutes after the oldest `updatedAt` of its rates, ms since the epoch. */
  expiresAt: number;
}

/** A copy the caller may change without changing the cache, with the original `lastResponse`. */
function copyOf(list: ApiResult<DataList<ExchangeRate>>): ApiResult<DataList<ExchangeRate>> {
  const copy = structuredClone({ data: list.data });
  Object.defineProperty(copy, "lastResponse", { value: list.lastResponse, enumerable: false });
  return copy as ApiResult<DataList<ExchangeRate>>;
}

/**
 * `GET /exchange-rates` (docs/guides/exchange-rates-daily-volume.md). The server serves the same rate for 5
 * minutes from its `updatedAt` (platform clock), so the SDK keeps each answer (per set of parameters) until
 * 5 minutes after the oldest `updatedAt` in it, compared with the client's `now` option, and answers from
 * memory meanwhile. The cached answer keeps the `lastResponse` of the call that fetched it. An empty list is
 * not cached.
 */
export class ExchangeRatesResource {
  readonly #sender: RequestSender;
  readonly #now: () => Date;
  readonly #cache = new Map<string, CacheEntry>();

  constructor(sender: RequestSender, now: () => Date) {
    this.#sender = sender;
    this.#now = now;
  }

  /** Each corridor's rate over each destination rail, priced for `sendingAmount`; from the cache while valid. */
  async list(
    params: ExchangeRateParams = {},
    options: ExchangeRateListOptions = {},
  ): Promise<ApiResult<DataList<ExchangeRate>>> {
    const { refresh, ...requestOptions } = options;
    const destinations = params.destinationCurrency;
    const key = JSON.stringify([
      params.sourceCurrency ?? null,
      destinations === undefined ? null : [destinations].flat(),
      params.sendingAmount ?? null,
    ]);
    const cached = this.#cache.get(key);
    if (!refresh && cached && this.#now().getTime() < cached.expiresAt) return copyOf(cached.list);
    const list = await this.#sender.send<DataList<ExchangeRate>>("GET", "/exchange-rates", {
      query: params,
      options: requestOptions,
    });
    const expiresAt = Math.min(...list.data.map((rate) => Date.parse(rate.updatedAt) + RATE_TTL_MS));
    if (Number.isFinite(expiresAt)) this.#cache.set(key, { list: copyOf(list), expiresAt });
    else this.#cache.delete(key);
    return list;
  }

  /** Forgets every cached answer. */
  clearCache(): void {
    this.#cache.clear();
  }
}
