import { paginate } from "../core/pagination.js";
import { type ApiResult, path, type RequestOptions, type RequestSender } from "../core/request.js";
import type {
  BalanceChangeParams,
  BalanceChangeWindow,
  CustomerInternalAccountListParams,
  DataList,
  InternalAccount,
  InternalAccountFilters,
  Page,
} from "../types/index.js";

/** Internal accounts (conventions §2.2): read-only here; customers' accounts are opened at create. */
export class InternalAccountsResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `GET /customers/internal-accounts`: one page of customer-owned accounts. */
  async listForCustomers(
    params: CustomerInternalAccountListParams = {},
    options?: RequestOptions,
  ): Promise<ApiResult<Page<InternalAccount>>> {
    return this.#sender.send("GET", "/customers/internal-accounts", { query: params, options });
  }

  /** Every customer-owned account matching the filters, page by page. */
  listAllForCustomers(
    params: CustomerInternalAccountListParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<InternalAccount, void, undefined> {
    return paginate((page) => this.listForCustomers(page, options), params);
  }

  /** `GET /platform/internal-accounts`: the platform's own accounts, not paginated. */
  async listPlatform(
    filters: InternalAccountFilters = {},
    options?: RequestOptions,
  ): Promise<ApiResult<DataList<InternalAccount>>> {
    return this.#sender.send("GET", "/platform/internal-accounts", { query: filters, options });
  }

  /** `GET /internal-accounts/{accountId}`; unknown → `NotFoundError` `ACCOUNT_NOT_FOUND`. */
  async get(accountId: string, options?: RequestOptions): Promise<ApiResult<InternalAccount>> {
    return this.#sender.send("GET", path`/internal-accounts/${accountId}`, { options });
  }

  /**
   * `GET /internal-accounts/{accountId}/balance-changes`: one page of the half-open window `[from, to)`.
   * A window whose card settlement has not closed → `ConflictError` `NOT_YET_AVAILABLE` with
   * `retryAfterSeconds`. For a monthly statement use `client.statements.build`, which pages and checks.
   */
  async balanceChanges(
    accountId: string,
    params: BalanceChangeParams,
    options?: RequestOptions,
  ): Promise<ApiResult<BalanceChangeWindow>> {
    return this.#sender.send("GET", path`/internal-accounts/${accountId}/balance-changes`, {
      query: params,
      options,
    });
  }
}
