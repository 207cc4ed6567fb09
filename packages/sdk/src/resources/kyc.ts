import { paginate } from "../core/pagination.js";
import { type ApiResult, path, type RequestOptions, type RequestSender } from "../core/request.js";
import type {
  BeneficialOwner,
  BeneficialOwnerListParams,
  CreateBeneficialOwnerBody,
  CreateKycLinkBody,
  CreateVerificationBody,
  KycLink,
  Page,
  UpdateBeneficialOwnerBody,
  Verification,
  VerificationListParams,
} from "../types/index.js";

/**
 * `/beneficial-owners`: the owners of a BUSINESS customer, checked by its verification. An INDIVIDUAL
 * customer, or shares adding up to more than 100, is `BadRequestError` `INVALID_INPUT`; an unknown owner
 * is `NotFoundError` `NOT_FOUND`.
 */
export class BeneficialOwnersResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `POST /beneficial-owners` → `201` BeneficialOwner, `UNVERIFIED`. */
  async create(
    body: CreateBeneficialOwnerBody,
    options?: RequestOptions,
  ): Promise<ApiResult<BeneficialOwner>> {
    return this.#sender.send("POST", "/beneficial-owners", { body, options });
  }

  /** `GET /beneficial-owners/{beneficialOwnerId}`. */
  async get(beneficialOwnerId: string, options?: RequestOptions): Promise<ApiResult<BeneficialOwner>> {
    return this.#sender.send("GET", path`/beneficial-owners/${beneficialOwnerId}`, { options });
  }

  /** `PATCH /beneficial-owners/{beneficialOwnerId}`: merges the fields given. */
  async update(
    beneficialOwnerId: string,
    body: UpdateBeneficialOwnerBody,
    options?: RequestOptions,
  ): Promise<ApiResult<BeneficialOwner>> {
    return this.#sender.send("PATCH", path`/beneficial-owners/${beneficialOwnerId}`, { body, options });
  }

  /** `GET /beneficial-owners?customerId=`: one page of a business's owners, oldest first. */
  async list(
    params: BeneficialOwnerListParams,
    options?: RequestOptions,
  ): Promise<ApiResult<Page<BeneficialOwner>>> {
    return this.#sender.send("GET", "/beneficial-owners", { query: params, options });
  }

  /** Every owner of the business, fetched page by page as the iteration proceeds. */
  listAll(
    params: BeneficialOwnerListParams,
    options?: RequestOptions,
  ): AsyncGenerator<BeneficialOwner, void, undefined> {
    return paginate((page) => this.list(page, options), params);
  }
}

/**
 * `/verifications` and the hosted KYC link. A submission answers `200` with the Verification: `RESOLVE_ERRORS`
 * lists what is missing; a complete packet resolves (in a sandbox by the suffix rules). An unknown
 * verification is `NotFoundError` `VERIFICATION_NOT_FOUND`.
 */
export class VerificationsResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `POST /verifications`: submits the customer's packet as it is on file. */
  async create(body: CreateVerificationBody, options?: RequestOptions): Promise<ApiResult<Verification>> {
    return this.#sender.send("POST", "/verifications", { body, options });
  }

  /** `GET /verifications/{verificationId}`. */
  async get(verificationId: string, options?: RequestOptions): Promise<ApiResult<Verification>> {
    return this.#sender.send("GET", path`/verifications/${verificationId}`, { options });
  }

  /** `GET /verifications`: one page, newest first unless `sortOrder` is `asc`. */
  async list(
    params: VerificationListParams = {},
    options?: RequestOptions,
  ): Promise<ApiResult<Page<Verification>>> {
    return this.#sender.send("GET", "/verifications", { query: params, options });
  }

  /** Every verification matching the filters, fetched page by page as the iteration proceeds. */
  listAll(
    params: VerificationListParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<Verification, void, undefined> {
    return paginate((page) => this.list(page, options), params);
  }

  /**
   * `POST /customers/{customerId}/kyc-link` → `201`: a link (24 hours) to the hosted page where the person
   * submits the verification. `ConflictError` once the customer is APPROVED or REJECTED; a PRODUCTION
   * platform has no KYC provider (`501 NOT_IMPLEMENTED`).
   */
  async createKycLink(
    customerId: string,
    body: CreateKycLinkBody = {},
    options?: RequestOptions,
  ): Promise<ApiResult<KycLink>> {
    return this.#sender.send("POST", path`/customers/${customerId}/kyc-link`, { body, options });
  }
}
