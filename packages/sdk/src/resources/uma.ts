import { paginate } from "../core/pagination.js";
import { type ApiResult, path, type RequestOptions, type RequestSender } from "../core/request.js";
import type {
  ReceiverExternalAccountLookupResponse,
  ReceiverUmaLookupResponse,
  UmaLookupParams,
  UmaProvider,
  UmaProviderListParams,
  UmaProviderListResponse,
  Vasp,
  VaspListParams,
  VaspListResponse,
} from "../types/index.js";

/**
 * Receivers to pay (issue 19): a UMA lookup runs the signed LNURLP round trip with the receiver's VASP.
 *
 *     const receiver = await paysvc.receiver.lookupUma("$alice@pay.example.com", { customerId });
 *     receiver.lookupId; // for the quote to the address
 */
export class ReceiverResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /**
   * `GET /receiver/uma/{receiverUmaAddress}`: the currencies the receiver takes, with rates and limits, the
   * payer data its VASP requires, and a `lookupId`. Failures carry the catalogue's code (`UMA_NOT_FOUND`,
   * `LNURLP_REQUEST_FAILED`, `CERT_CHAIN_EXPIRED`…).
   */
  async lookupUma(
    receiverUmaAddress: string,
    params: UmaLookupParams = {},
    options?: RequestOptions,
  ): Promise<ApiResult<ReceiverUmaLookupResponse>> {
    return this.#sender.send("GET", path`/receiver/uma/${receiverUmaAddress}`, { query: params, options });
  }

  /**
   * `GET /receiver/external-account/{accountId}`: the account's currency with the estimated rate from USD and
   * the per-payment bounds, and a `lookupId` a payout quote to the account may cite. Unknown account →
   * `NotFoundError` `ACCOUNT_NOT_FOUND`.
   */
  async lookupExternalAccount(
    accountId: string,
    params: UmaLookupParams = {},
    options?: RequestOptions,
  ): Promise<ApiResult<ReceiverExternalAccountLookupResponse>> {
    return this.#sender.send("GET", path`/receiver/external-account/${accountId}`, {
      query: params,
      options,
    });
  }
}

/** `GET /uma-providers`: the UMA providers this deployment knows. */
export class UmaProvidersResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** One page, optionally of one `countryCode` (ISO 3166-1 alpha-2) and `currencyCode`. */
  async list(
    params: UmaProviderListParams = {},
    options?: RequestOptions,
  ): Promise<ApiResult<UmaProviderListResponse>> {
    return this.#sender.send("GET", "/uma-providers", { query: params, options });
  }

  /** Every provider, page by page. */
  listAll(
    params: UmaProviderListParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<UmaProvider, void, undefined> {
    return paginate((page) => this.list(page, options), params);
  }
}

/** `GET /vasps`: the VASPs this deployment knows, with the base URL of their UMA endpoints. */
export class VaspsResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** One page, ordered by name. */
  async list(params: VaspListParams = {}, options?: RequestOptions): Promise<ApiResult<VaspListResponse>> {
    return this.#sender.send("GET", "/vasps", { query: params, options });
  }

  /** Every VASP, page by page. */
  listAll(params: VaspListParams = {}, options?: RequestOptions): AsyncGenerator<Vasp, void, undefined> {
    return paginate((page) => this.list(page, options), params);
  }
}
