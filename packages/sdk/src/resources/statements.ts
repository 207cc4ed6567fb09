import { paginate } from "../core/pagination.js";
import { type ApiResult, path, type RequestOptions, type RequestSender } from "../core/request.js";
import { type BuildStatementOptions, buildStatement } from "../statements/build.js";
import type { Statement } from "../statements/statement.js";
import type {
  ConfirmedDeliveryRecord,
  DeliveryRecord,
  Page,
  SortedPageParams,
  StatementConfirmationBody,
} from "../types/index.js";
import type { InternalAccountsResource } from "./internal-accounts.js";
import type { TransactionsResource } from "./transactions.js";

/** Periodic statements (interface "Periodic statement rules"; conventions §3.1–§3.2). */
export class StatementsResource {
  readonly #sender: RequestSender;
  readonly #accounts: InternalAccountsResource;
  readonly #transactions: TransactionsResource;

  constructor(sender: RequestSender, accounts: InternalAccountsResource, transactions: TransactionsResource) {
    this.#sender = sender;
    this.#accounts = accounts;
    this.#transactions = transactions;
  }

  /**
   * Builds the statement of one account for one `America/Chicago` month: pages the balance-changes window
   * (limit 200), checks that every page describes the same window and that
   * `openingBalance + Σ amount == closingBalance`, waits out `409 NOT_YET_AVAILABLE` up to `maxWaitMs`,
   * reads each transaction once for its type, counterparty, merchant and rail, and leaves out declined card
   * authorizations. A failed check throws `StatementIntegrityError`: do not send the statement; contact
   * support. Send the receipt with {@link StatementsResource.confirm} once the statement is issued.
   */
  async build(options: BuildStatementOptions): Promise<Statement> {
    return buildStatement(
      {
        getAccount: (id) => this.#accounts.get(id),
        balanceChanges: (id, params, requestOptions) =>
          this.#accounts.balanceChanges(id, params, requestOptions),
        getTransaction: (id) => this.#transactions.get(id),
        maxRetries: this.#sender.maxRetries,
      },
      options,
    );
  }

  /**
   * `POST /internal-accounts/{accountId}/statement-confirmations {periodStart}`: the receipt for an issued
   * statement (`statement.period.start`). The first → `201`; a repeat → `200` with the first record unchanged.
   */
  async confirm(
    accountId: string,
    body: StatementConfirmationBody,
    options?: RequestOptions,
  ): Promise<ApiResult<ConfirmedDeliveryRecord>> {
    return this.#sender.send("POST", path`/internal-accounts/${accountId}/statement-confirmations`, {
      body,
      options,
    });
  }

  /** `GET /internal-accounts/{accountId}/statement-deliveries`: one page, newest period first unless `sortOrder` is `asc`. */
  async listDeliveries(
    accountId: string,
    page: SortedPageParams = {},
    options?: RequestOptions,
  ): Promise<ApiResult<Page<DeliveryRecord>>> {
    return this.#sender.send("GET", path`/internal-accounts/${accountId}/statement-deliveries`, {
      query: page,
      options,
    });
  }

  /** Every delivery record of the account, page by page. */
  listAllDeliveries(
    accountId: string,
    page: SortedPageParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<DeliveryRecord, void, undefined> {
    return paginate((p) => this.listDeliveries(accountId, p, options), page);
  }
}
