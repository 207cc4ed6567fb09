import { paginate } from "../core/pagination.js";
import { type ApiResult, path, type RequestOptions, type RequestSender } from "../core/request.js";
import type {
  BurnBody,
  CreateStablecoinProviderAccountBody,
  MintBody,
  Page,
  RegisterStablecoinBody,
  SortedPageParams,
  Stablecoin,
  StablecoinOperation,
  StablecoinOperationListParams,
  StablecoinProviderAccount,
  StablecoinProviderAccountListParams,
} from "../types/index.js";

/**
 * `/stablecoins` and `/stablecoin-provider-accounts` (docs/guides/stablecoins.md): register a token, request
 * its enablement, link provider accounts, then mint and burn. An unknown id is `NotFoundError`; a mint or
 * burn before the token is `ENABLED` and provisioned is `ConflictError` with the gate's code.
 */
export class StablecoinsResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `POST /stablecoins` → `201` Stablecoin in `NOT_ENABLED`. */
  async register(body: RegisterStablecoinBody, options?: RequestOptions): Promise<ApiResult<Stablecoin>> {
    return this.#sender.send("POST", "/stablecoins", { body, options });
  }

  /** `GET /stablecoins/{stablecoinId}`. */
  async get(stablecoinId: string, options?: RequestOptions): Promise<ApiResult<Stablecoin>> {
    return this.#sender.send("GET", path`/stablecoins/${stablecoinId}`, { options });
  }

  /** `GET /stablecoins`: one page, newest first unless `sortOrder` is `asc`. */
  async list(params: SortedPageParams = {}, options?: RequestOptions): Promise<ApiResult<Page<Stablecoin>>> {
    return this.#sender.send("GET", "/stablecoins", { query: params, options });
  }

  /** Every registered stablecoin, page by page. */
  listAll(
    params: SortedPageParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<Stablecoin, void, undefined> {
    return paginate((page) => this.list(page, options), params);
  }

  /**
   * `POST /stablecoins/{stablecoinId}/request-enablement`: `NOT_ENABLED` → `PENDING_APPROVAL` (repeating it
   * while pending succeeds); from any other state `ConflictError` `INVALID_STATE_TRANSITION`.
   */
  async requestEnablement(stablecoinId: string, options?: RequestOptions): Promise<ApiResult<Stablecoin>> {
    return this.#sender.send("POST", path`/stablecoins/${stablecoinId}/request-enablement`, { options });
  }

  /** `POST /stablecoins/{stablecoinId}/mints` → `201` operation in `PROCESSING`; the source account pays at once. */
  async mint(
    stablecoinId: string,
    body: MintBody,
    options?: RequestOptions,
  ): Promise<ApiResult<StablecoinOperation>> {
    return this.#sender.send("POST", path`/stablecoins/${stablecoinId}/mints`, { body, options });
  }

  /** `POST /stablecoins/{stablecoinId}/burns` → `201` operation in `PROCESSING`; the account is credited on completion. */
  async burn(
    stablecoinId: string,
    body: BurnBody,
    options?: RequestOptions,
  ): Promise<ApiResult<StablecoinOperation>> {
    return this.#sender.send("POST", path`/stablecoins/${stablecoinId}/burns`, { body, options });
  }

  /** `GET /stablecoin-operations/{stablecoinOperationId}`: one mint or burn of any of the platform's stablecoins. */
  async getOperation(
    stablecoinOperationId: string,
    options?: RequestOptions,
  ): Promise<ApiResult<StablecoinOperation>> {
    return this.#sender.send("GET", path`/stablecoin-operations/${stablecoinOperationId}`, { options });
  }

  /** `GET /stablecoins/{stablecoinId}/operations`: one page of mints and burns. */
  async listOperations(
    stablecoinId: string,
    params: StablecoinOperationListParams = {},
    options?: RequestOptions,
  ): Promise<ApiResult<Page<StablecoinOperation>>> {
    return this.#sender.send("GET", path`/stablecoins/${stablecoinId}/operations`, {
      query: params,
      options,
    });
  }

  /** Every operation of the stablecoin matching the filters, page by page. */
  listAllOperations(
    stablecoinId: string,
    params: StablecoinOperationListParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<StablecoinOperation, void, undefined> {
    return paginate((page) => this.listOperations(stablecoinId, page, options), params);
  }

  /** `POST /stablecoin-provider-accounts` → `201` link in `ACTIVE`. */
  async createProviderAccount(
    body: CreateStablecoinProviderAccountBody,
    options?: RequestOptions,
  ): Promise<ApiResult<StablecoinProviderAccount>> {
    return this.#sender.send("POST", "/stablecoin-provider-accounts", { body, options });
  }

  /** `GET /stablecoin-provider-accounts/{providerAccountId}`. */
  async getProviderAccount(
    providerAccountId: string,
    options?: RequestOptions,
  ): Promise<ApiResult<StablecoinProviderAccount>> {
    return this.#sender.send("GET", path`/stablecoin-provider-accounts/${providerAccountId}`, { options });
  }

  /** `GET /stablecoin-provider-accounts`: one page. */
  async listProviderAccounts(
    params: StablecoinProviderAccountListParams = {},
    options?: RequestOptions,
  ): Promise<ApiResult<Page<StablecoinProviderAccount>>> {
    return this.#sender.send("GET", "/stablecoin-provider-accounts", { query: params, options });
  }

  /** Every provider account link matching the filters, page by page. */
  listAllProviderAccounts(
    params: StablecoinProviderAccountListParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<StablecoinProviderAccount, void, undefined> {
    return paginate((page) => this.listProviderAccounts(page, options), params);
  }

  /** `POST /stablecoin-provider-accounts/{id}/revoke`: for good; repeating it answers the revoked link unchanged. */
  async revokeProviderAccount(
    providerAccountId: string,
    options?: RequestOptions,
  ): Promise<ApiResult<StablecoinProviderAccount>> {
    return this.#sender.send("POST", path`/stablecoin-provider-accounts/${providerAccountId}/revoke`, {
      options,
    });
  }
}
