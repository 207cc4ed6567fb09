import { paginate } from "../core/pagination.js";
import {
  type ApiResult,
  type EmptyResult,
  path,
  type RequestOptions,
  type RequestSender,
} from "../core/request.js";
import type { ApiToken, CreatedApiToken, CreateTokenBody, Page, TokenListParams } from "../types/index.js";

/** API tokens (conventions §1.2). Writes need the `MANAGE` permission. */
export class TokensResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `POST /tokens` → `201`; the answer is the only time `clientSecret` is shown. */
  async create(body: CreateTokenBody, options?: RequestOptions): Promise<ApiResult<CreatedApiToken>> {
    return this.#sender.send("POST", "/tokens", { body, options });
  }

  /** `GET /tokens/{tokenId}`; unknown → `NotFoundError` `TOKEN_NOT_FOUND`. */
  async get(tokenId: string, options?: RequestOptions): Promise<ApiResult<ApiToken>> {
    return this.#sender.send("GET", path`/tokens/${tokenId}`, { options });
  }

  /** `GET /tokens`: one page, filtered by exact `name` and by creation and update times. */
  async list(params: TokenListParams = {}, options?: RequestOptions): Promise<ApiResult<Page<ApiToken>>> {
    return this.#sender.send("GET", "/tokens", { query: params, options });
  }

  /** Every token of the platform matching the filters, page by page. */
  listAll(params: TokenListParams = {}, options?: RequestOptions): AsyncGenerator<ApiToken, void, undefined> {
    return paginate((page) => this.list(page, options), params);
  }

  /** `DELETE /tokens/{tokenId}` → `204`; the token stops authenticating at once. */
  async delete(tokenId: string, options?: RequestOptions): Promise<EmptyResult> {
    return this.#sender.send("DELETE", path`/tokens/${tokenId}`, { options });
  }
}
