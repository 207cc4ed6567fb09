import { paginate } from "./core/pagination.js";
import {
  type ApiResult,
  type EmptyResult,
  type HttpMethod,
  path,
  RequestSender,
  type SendInput,
} from "./core/request.js";
import type { CreatePlatformExternalAccountBody, ExternalAccount } from "./types/external-accounts.js";
import type {
  Agent,
  AgentAction,
  AgentActionListParams,
  AgentTransferInBody,
  AgentTransferOutBody,
  AnyTransaction,
  CreateQuoteBody,
  ExecuteQuoteBody,
  InternalAccount,
  InternalAccountType,
  Page,
  Quote,
  SortedPageParams,
  TransactionStatus,
} from "./types/index.js";

export interface AgentClientOptions {
  /** The API base address including the version segment, as for `PaysvcClient`. */
  baseUrl: string;
  /** The agent's access token (`agents.redeemDeviceCode(code).accessToken`). */
  accessToken: string;
  /** Retries after the first attempt for failures safe to repeat (never a POST after a 5xx). Default 2. */
  maxRetries?: number;
  /** Time allowed for each attempt. Default 30 000 ms. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Per-call overrides of an agent call (its routes take no idempotency key). */
export interface AgentRequestOptions {
  timeoutMs?: number;
  maxRetries?: number;
}

export interface AgentInternalAccountListParams extends SortedPageParams {
  currency?: string;
  type?: InternalAccountType;
}

export interface AgentExternalAccountListParams extends SortedPageParams {
  currency?: string;
}

/** `client.transactions.list`'s filters but the customer and card ones: the customer is always the agent's. */
export interface AgentTransactionListParams extends SortedPageParams {
  accountIdentifier?: string;
  /** Payments whose source account is this one; card purchases on it. */
  senderAccountIdentifier?: string;
  /** Payments whose destination account is this one; card refunds to it. */
  receiverAccountIdentifier?: string;
  status?: TransactionStatus;
  type?: "INCOMING" | "OUTGOING" | "CARD";
  reference?: string;
  /** A date-time with an offset (that instant), or `YYYY-MM-DD` (from the start of that UTC day); inclusive. */
  startDate?: string;
  /** A date-time with an offset (that instant), or `YYYY-MM-DD` (to the end of that UTC day); inclusive. */
  endDate?: string;
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new TypeError(`AgentClient: ${message}`);
}

/**
 * What an agent app does with its own access token (`/agents/me/**`, `Authorization: Bearer`), bound to
 * the agent's customer and limited by its policy (`PermissionError` `FORBIDDEN` for a permission the policy
 * lacks or while the agent is paused; `AuthenticationError` once the agent is deleted or its token replaced).
 * Under `APPROVAL_REQUIRED`, a payment's action waits in `PENDING_APPROVAL` until the platform approves it. These routes take no Idempotency-Key, so the client never repeats a POST after a 5xx.
 */
export class AgentClient {
  readonly #sender: RequestSender;

  constructor(options: AgentClientOptions) {
    const maxRetries = options.maxRetries ?? 2;
    const timeoutMs = options.timeoutMs ?? 30_000;
    const fetchImpl = options.fetch ?? globalThis.fetch;
    check(
      typeof options.baseUrl === "string" && /^https?:\/\//.test(options.baseUrl),
      "baseUrl must be an http(s) URL",
    );
    check(typeof options.accessToken === "string" && options.accessToken !== "", "accessToken is required");
    check(Number.isInteger(maxRetries) && maxRetries >= 0, "maxRetries must be an integer ≥ 0");
    check(Number.isFinite(timeoutMs) && timeoutMs > 0, "timeoutMs must be a positive number");
    check(typeof fetchImpl === "function", "no fetch available; pass options.fetch");
    this.#sender = new RequestSender({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      clientId: "",
      clientSecret: "",
      authorization: `Bearer ${options.accessToken}`,
      maxRetries,
      timeoutMs,
      fetch: fetchImpl,
    });
  }

  #send<T extends object>(
    method: HttpMethod,
    resourcePath: string,
    input: Omit<SendInput, "options" | "noIdempotencyKey">,
    options: AgentRequestOptions | undefined,
  ): Promise<ApiResult<T>> {
    return this.#sender.send<T>(method, resourcePath, { ...input, options, noIdempotencyKey: true });
  }

  /** `GET /agents/me`: the agent and its policy. */
  async me(options?: AgentRequestOptions): Promise<ApiResult<Agent>> {
    return this.#send("GET", "/agents/me", {}, options);
  }

  /** `GET /agents/me/internal-accounts` (no permission needed): one page of the customer's accounts. */
  async listInternalAccounts(
    params: AgentInternalAccountListParams = {},
    options?: AgentRequestOptions,
  ): Promise<ApiResult<Page<InternalAccount>>> {
    return this.#send("GET", "/agents/me/internal-accounts", { query: params }, options);
  }

  listAllInternalAccounts(
    params: AgentInternalAccountListParams = {},
    options?: AgentRequestOptions,
  ): AsyncGenerator<InternalAccount, void, undefined> {
    return paginate((page) => this.listInternalAccounts(page, options), params);
  }

  /** `GET /agents/me/external-accounts` (no permission needed). */
  async listExternalAccounts(
    params: AgentExternalAccountListParams = {},
    options?: AgentRequestOptions,
  ): Promise<ApiResult<Page<ExternalAccount>>> {
    return this.#send("GET", "/agents/me/external-accounts", { query: params }, options);
  }

  listAllExternalAccounts(
    params: AgentExternalAccountListParams = {},
    options?: AgentRequestOptions,
  ): AsyncGenerator<ExternalAccount, void, undefined> {
    return paginate((page) => this.listExternalAccounts(page, options), params);
  }

  /** `POST /agents/me/external-accounts` (`MANAGE_EXTERNAL_ACCOUNTS`): an account of the agent's customer. */
  async createExternalAccount(
    body: CreatePlatformExternalAccountBody,
    options?: AgentRequestOptions,
  ): Promise<ApiResult<ExternalAccount>> {
    return this.#send("POST", "/agents/me/external-accounts", { body }, options);
  }

  /** `GET /agents/me/external-accounts/{externalAccountId}`: one of the customer's accounts. */
  async getExternalAccount(
    externalAccountId: string,
    options?: AgentRequestOptions,
  ): Promise<ApiResult<ExternalAccount>> {
    return this.#send("GET", path`/agents/me/external-accounts/${externalAccountId}`, {}, options);
  }

  /** `DELETE /agents/me/external-accounts/{externalAccountId}` (`MANAGE_EXTERNAL_ACCOUNTS`) → `204`. */
  async deleteExternalAccount(
    externalAccountId: string,
    options?: AgentRequestOptions,
  ): Promise<EmptyResult> {
    return this.#send("DELETE", path`/agents/me/external-accounts/${externalAccountId}`, {}, options);
  }

  /** `POST /agents/me/quotes` (`CREATE_QUOTES`): prices a payment from the customer's account. */
  async createQuote(body: CreateQuoteBody, options?: AgentRequestOptions): Promise<ApiResult<Quote>> {
    return this.#send("POST", "/agents/me/quotes", { body }, options);
  }

  /** `GET /agents/me/quotes/{quoteId}`. */
  async getQuote(quoteId: string, options?: AgentRequestOptions): Promise<ApiResult<Quote>> {
    return this.#send("GET", path`/agents/me/quotes/${quoteId}`, {}, options);
  }

  /**
   * `POST /agents/me/quotes/{quoteId}/execute` (`EXECUTE_QUOTES`) → the EXECUTE_QUOTE action: `APPROVED`
   * (executed), or `PENDING_APPROVAL` with its payment waiting as a `PENDING` transaction
   * (`pendingReason: "PLATFORM_APPROVAL_REQUIRED"`) until the platform approves it.
   */
  async executeQuote(
    quoteId: string,
    body: ExecuteQuoteBody = {},
    options?: AgentRequestOptions,
  ): Promise<ApiResult<AgentAction>> {
    return this.#send("POST", path`/agents/me/quotes/${quoteId}/execute`, { body }, options);
  }

  /** `GET /agents/me/actions`: one page of the agent's own actions, newest first. */
  async listActions(
    params: AgentActionListParams = {},
    options?: AgentRequestOptions,
  ): Promise<ApiResult<Page<AgentAction>>> {
    return this.#send("GET", "/agents/me/actions", { query: params }, options);
  }

  listAllActions(
    params: AgentActionListParams = {},
    options?: AgentRequestOptions,
  ): AsyncGenerator<AgentAction, void, undefined> {
    return paginate((page) => this.listActions(page, options), params);
  }

  /** `GET /agents/me/actions/{actionId}`: one of the agent's own actions, else `NotFoundError`. */
  async getAction(actionId: string, options?: AgentRequestOptions): Promise<ApiResult<AgentAction>> {
    return this.#send("GET", path`/agents/me/actions/${actionId}`, {}, options);
  }

  /**
   * `POST /agents/me/transfer-out` (`CREATE_TRANSFERS`) → `201` TRANSFER_OUT action: `PENDING_APPROVAL` while
   * the policy requires platform approval, else `APPROVED` with its payment executing.
   */
  async transferOut(
    body: AgentTransferOutBody,
    options?: AgentRequestOptions,
  ): Promise<ApiResult<AgentAction>> {
    return this.#send("POST", "/agents/me/transfer-out", { body }, options);
  }

  /**
   * `POST /agents/me/transfer-in` (`CREATE_TRANSFERS`) → `201` TRANSFER_IN action: `APPROVED` with the money
   * moved, or `PENDING_APPROVAL` with nothing moved until the platform approves it.
   */
  async transferIn(
    body: AgentTransferInBody,
    options?: AgentRequestOptions,
  ): Promise<ApiResult<AgentAction>> {
    return this.#send("POST", "/agents/me/transfer-in", { body }, options);
  }

  /** `GET /agents/me/transactions` (`VIEW_TRANSACTIONS`). */
  async listTransactions(
    params: AgentTransactionListParams = {},
    options?: AgentRequestOptions,
  ): Promise<ApiResult<Page<AnyTransaction>>> {
    return this.#send("GET", "/agents/me/transactions", { query: params }, options);
  }

  listAllTransactions(
    params: AgentTransactionListParams = {},
    options?: AgentRequestOptions,
  ): AsyncGenerator<AnyTransaction, void, undefined> {
    return paginate((page) => this.listTransactions(page, options), params);
  }

  /** `GET /agents/me/transactions/{transactionId}`. */
  async getTransaction(
    transactionId: string,
    options?: AgentRequestOptions,
  ): Promise<ApiResult<AnyTransaction>> {
    return this.#send("GET", path`/agents/me/transactions/${transactionId}`, {}, options);
  }
}
