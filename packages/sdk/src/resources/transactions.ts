import { paginate } from "../core/pagination.js";
import { type ApiResult, path, type RequestOptions, type RequestSender } from "../core/request.js";
import type { AnyTransaction, Page, Transaction, TransactionListParams } from "../types/index.js";

/** Transactions (conventions §3.4): payment rows and card rows, discriminated by `type`. */
export class TransactionsResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /**
   * `GET /transactions/{transactionId}`: a `Transaction:` or `CardTransaction:` id; unknown →
   * `NotFoundError` `TRANSACTION_NOT_FOUND`.
   */
  async get(transactionId: string, options?: RequestOptions): Promise<ApiResult<AnyTransaction>> {
    return this.#sender.send("GET", path`/transactions/${transactionId}`, { options });
  }

  /** `GET /transactions`: one page, newest first unless `sortOrder` is `asc`. */
  async list(
    params: TransactionListParams = {},
    options?: RequestOptions,
  ): Promise<ApiResult<Page<AnyTransaction>>> {
    return this.#sender.send("GET", "/transactions", { query: params, options });
  }

  /** Every transaction matching the filters, page by page. */
  listAll(
    params: TransactionListParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<AnyTransaction, void, undefined> {
    return paginate((page) => this.list(page, options), params);
  }

  /**
   * `POST /transactions/{transactionId}/approve`: executes an agent-initiated payment waiting with
   * `pendingReason: "PLATFORM_APPROVAL_REQUIRED"` (needs `TRANSACT`). `ConflictError`
   * `TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL` for any other transaction (or a second approval); a refused
   * execution (`BadRequestError` `INSUFFICIENT_FUNDS`, `RateLimitError` `DAILY_VOLUME_LIMIT_EXCEEDED` with
   * `retryAfterSeconds`, …) leaves the payment pending, so it can be approved again later. The idempotency
   * key makes a retried call the same approval.
   */
  async approve(transactionId: string, options?: RequestOptions): Promise<ApiResult<Transaction>> {
    return this.#sender.send("POST", path`/transactions/${transactionId}/approve`, { options });
  }

  /**
   * `POST /transactions/{transactionId}/reject {reason?}`: refuses an agent-initiated payment waiting for
   * approval: it FAILS, its quote FAILS and its agent action is REJECTED with the reason; no money moves.
   * `ConflictError` `TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL` for any other transaction.
   */
  async reject(
    transactionId: string,
    body: { reason?: string } = {},
    options?: RequestOptions,
  ): Promise<ApiResult<Transaction>> {
    return this.#sender.send("POST", path`/transactions/${transactionId}/reject`, { body, options });
  }

  /**
   * `POST /transactions/{transactionId}/cancel {reason?}`: stops a quote's outgoing payment before it
   * settles (FAILED `QUOTE_EXECUTION_FAILED`, the debit refunded); settled or final → `ConflictError`
   * `TRANSACTION_NOT_CANCELLABLE`.
   */
  async cancel(
    transactionId: string,
    body: { reason?: string } = {},
    options?: RequestOptions,
  ): Promise<ApiResult<Transaction>> {
    return this.#sender.send("POST", path`/transactions/${transactionId}/cancel`, { body, options });
  }

  /**
   * `POST /transactions/{transactionId}/confirm {receiptDeliveryConfirmedAt?}`: records the receipt's
   * delivery to the customer (now by default); the first confirmation is kept.
   */
  async confirm(
    transactionId: string,
    body: { receiptDeliveryConfirmedAt?: string } = {},
    options?: RequestOptions,
  ): Promise<ApiResult<Transaction>> {
    return this.#sender.send("POST", path`/transactions/${transactionId}/confirm`, { body, options });
  }
}
