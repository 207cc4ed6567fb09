import { paginate } from "../core/pagination.js";
import { type ApiResult, path, type RequestOptions, type RequestSender } from "../core/request.js";
import type {
  Agreement,
  BulkCustomerImportJob,
  BulkCustomerImportJobAccepted,
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

  /**
   * `DELETE /customers/{customerId}` → `200` with the deleted Customer (`isDeleted: true`); its
   * `platformCustomerId` is free again. A deleted customer → `ConflictError` `CONFLICT`.
   */
  async delete(customerId: string, options?: RequestOptions): Promise<ApiResult<Customer>> {
    return this.#sender.send("DELETE", path`/customers/${customerId}`, { options });
  }

  /**
   * `POST /customers/bulk/csv` → `202`: uploads a CSV of customers (the `file` part of a multipart body;
   * at most 10 MiB and 10,000 rows). The header names `POST /customers` fields (`address.city`,
   * `agreementConsents[0].type`); poll {@link CustomersResource.getBulkImportJob} for the outcome.
   */
  async uploadCsv(
    csv: string | Uint8Array | Blob,
    options?: RequestOptions & { fileName?: string },
  ): Promise<ApiResult<BulkCustomerImportJobAccepted>> {
    const form = new FormData();
    const file =
      csv instanceof Blob
        ? csv
        : new Blob([typeof csv === "string" ? csv : new Uint8Array(csv)], { type: "text/csv" });
    form.append("file", file, options?.fileName ?? "customers.csv");
    return this.#sender.send("POST", "/customers/bulk/csv", { form, options });
  }

  /** `GET /customers/bulk/jobs/{jobId}`: status, progress and per-row errors; unknown → `BULK_UPLOAD_JOB_NOT_FOUND`. */
  async getBulkImportJob(jobId: string, options?: RequestOptions): Promise<ApiResult<BulkCustomerImportJob>> {
    return this.#sender.send("GET", path`/customers/bulk/jobs/${jobId}`, { options });
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
