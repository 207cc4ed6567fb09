import type { ApiResult, RequestOptions, RequestSender } from "../core/request.js";
import type { DataList, Discovery } from "../types/index.js";

/** `GET /discoveries`: where payouts can go, per corridor and country. */
export class DiscoveriesResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** The banks and wallet providers, optionally of one `country` (ISO 3166-1 alpha-2) and `currency`. */
  async list(
    params: { country?: string; currency?: string } = {},
    options?: RequestOptions,
  ): Promise<ApiResult<DataList<Discovery>>> {
    const query = new URLSearchParams(
      Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ).toString();
    return this.#sender.send("GET", query ? `/discoveries?${query}` : "/discoveries", { options });
  }
}
