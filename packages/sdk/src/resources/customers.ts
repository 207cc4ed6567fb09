import { paginate } from "../core/pagination.js";
import {
  type ApiResult,
  type EmptyResult,
  path,
  type RequestOptions,
  type RequestSender,
} from "../core/request.js";
import type {
  Agreement,
  CreateCustomerBody,
  Customer,
  CustomerListParams,
  DataList,
  EndUserTerms,
  Page,
  UpdateCustomerBody,
} from "../types/index.js";

/** `/customers` (conventions §2.1). Every method rejects with a PaysvcError subclass. */
export class CustomersResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `POST /customers` → `201`. Creates the customer's internal accounts too. */
  async create(body: CreateCustomerBody, options?: RequestOptions): Promise<ApiResult<Customer>> {
    return this.#sender.send("POST", "/customers", { body, options });
  }

  /** `GET /customers/{customerId}`; unknown → `NotFoundError` `CUSTOMER_NOT_FOUND`. */
  async get(customerId: string, options?: RequestOptions): Promise<ApiResult<Customer>> {
    return this.#sender.send("GET", path`/customers/${customerId}`, { options });
  }

  /** `PATCH /customers/{customerId}` with at least one field. */
  async update(
    customerId: string,
    body: UpdateCustomerBody,
    options?: RequestOptions,
  ): Promise<ApiResult<Customer>> {
    return this.#sender.send("PATCH", path`/customers/${customerId}`, { body, options });
  }

  /** `DELETE /customers/{customerId}` → `204`: marks it deleted, freeing its `platformCustomerId`. */
  async delete(customerId: string, options?: RequestOptions): Promise<EmptyResult> {
    return this.#sender.send("DELETE", path`/customers/${customerId}`, { options });
  }

  /** `GET /customers`: one page, newest first unless `sortOrder` is `asc`. */
  async list(params: CustomerListParams = {}, options?: RequestOptions): Promise<ApiResult<Page<Customer>>> {
    return this.#sender.send("GET", "/customers", { query: params, options });
  }

  /** Every customer matching the filters, fetched page by page as the iteration proceeds. */
  listAll(
    params: CustomerListParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<Customer, void, undefined> {
    return paginate((page) => this.list(page, options), params);
  }

  /** `GET /customers/agreements`: each agreement type with its current version. */
  async listAgreements(options?: RequestOptions): Promise<ApiResult<DataList<Agreement>>> {
    return this.#sender.send("GET", "/customers/agreements", { options });
  }

  /** @deprecated `GET /customers/end-user-terms`; use {@link CustomersResource.listAgreements}. */
  async getEndUserTerms(options?: RequestOptions): Promise<ApiResult<EndUserTerms>> {
    return this.#sender.send("GET", "/customers/end-user-terms", { options });
  }
}
