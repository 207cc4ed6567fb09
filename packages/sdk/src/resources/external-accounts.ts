import { paginate } from "../core/pagination.js";
import {
  type ApiResult,
  type EmptyResult,
  path,
  type RequestOptions,
  type RequestSender,
} from "../core/request.js";
import type {
  CreateCustomerExternalAccountBody,
  CreatePlatformExternalAccountBody,
  ExternalAccount,
  ExternalAccountListParams,
  LivenessChallenge,
  OwnershipChallenge,
  OwnershipVerificationMethod,
  PlatformExternalAccountListParams,
  VerifyOwnershipBody,
  WalletSignatureChallenge,
} from "../types/external-accounts.js";
import type { Page, SortedPageParams } from "../types/index.js";
import {
  type MessageSigner,
  type VerifyOwnershipOptions,
  verifyOwnership,
  type WaitForLivenessOutcomeOptions,
  waitForLivenessOutcome,
} from "./ownership-flows.js";

/**
 * External accounts (conventions §4): bank accounts and crypto wallets that payouts go to, and the
 * ownership verification of self-custody wallets. `client.externalAccounts` holds customers' accounts
 * (`/customers/external-accounts`), `client.platformExternalAccounts` the platform's own
 * (`/platform/external-accounts`); both have the same methods. An unknown id is `NotFoundError`
 * `ACCOUNT_NOT_FOUND`; an equivalent account is `ConflictError` `DUPLICATE_EXTERNAL_ACCOUNT`.
 */
export class ExternalAccountsResource<CreateBody, ListParams extends SortedPageParams> {
  readonly #sender: RequestSender;
  readonly #base: string;

  constructor(sender: RequestSender, owner: "customer" | "platform") {
    this.#sender = sender;
    this.#base = owner === "customer" ? "/customers/external-accounts" : "/platform/external-accounts";
  }

  #one(id: string, rest = ""): string {
    return `${this.#base}${path`/${id}`}${rest}`;
  }

  /**
   * `POST` → `201`. A FIRST_PARTY self-custody wallet (no `vaspName`) starts `PENDING_OWNERSHIP_VERIFICATION`
   * (usable below the regulatory threshold); other wallets start `ACTIVE`; a `USD_ACCOUNT` starts `PENDING`.
   */
  async create(body: CreateBody, options?: RequestOptions): Promise<ApiResult<ExternalAccount>> {
    return this.#sender.send("POST", this.#base, { body, options });
  }

  async get(id: string, options?: RequestOptions): Promise<ApiResult<ExternalAccount>> {
    return this.#sender.send("GET", this.#one(id), { options });
  }

  /** One page, newest first unless `sortOrder` is `asc`. */
  async list(params?: ListParams, options?: RequestOptions): Promise<ApiResult<Page<ExternalAccount>>> {
    return this.#sender.send("GET", this.#base, { query: params ?? {}, options });
  }

  /** Every account matching the filters, fetched page by page as the iteration proceeds. */
  listAll(params?: ListParams, options?: RequestOptions): AsyncGenerator<ExternalAccount, void, undefined> {
    return paginate((page) => this.list(page, options), (params ?? {}) as ListParams);
  }

  /** `DELETE` → `204`. */
  async delete(id: string, options?: RequestOptions): Promise<EmptyResult> {
    return this.#sender.send("DELETE", this.#one(id), { options });
  }

  /**
   * `POST …/{id}/challenge {method}` → `201`: starts ownership verification of a FIRST_PARTY self-custody
   * wallet, abandoning the challenge in flight (an UNVERIFIED wallet goes back to PENDING_OWNERSHIP_VERIFICATION).
   * `ConflictError` `CONFLICT` when verification does not apply (custodied, THIRD_PARTY, already ACTIVE);
   * `RateLimitError` `RATE_LIMITED` after 5 challenges in 15 minutes (`retryAfterSeconds`).
   */
  async challenge(
    id: string,
    method: "WALLET_SIGNATURE",
    options?: RequestOptions,
  ): Promise<ApiResult<WalletSignatureChallenge>>;
  async challenge(
    id: string,
    method: "LIVENESS",
    options?: RequestOptions,
  ): Promise<ApiResult<LivenessChallenge>>;
  async challenge(
    id: string,
    method: OwnershipVerificationMethod,
    options?: RequestOptions,
  ): Promise<ApiResult<OwnershipChallenge>>;
  async challenge(
    id: string,
    method: OwnershipVerificationMethod,
    options?: RequestOptions,
  ): Promise<ApiResult<OwnershipChallenge>> {
    return this.#sender.send("POST", this.#one(id, "/challenge"), { body: { method }, options });
  }

  /**
   * `POST …/{id}/verify {signature, signatureScheme?}` → `200` with the account `ACTIVE`. A wrong, undecodable
   * or late signature is `BadRequestError` `INVALID_INPUT` on `signature` and leaves the account
   * `UNVERIFIED`; no open WALLET_SIGNATURE challenge is `ConflictError` `CONFLICT`.
   * `verifyOwnership` does the whole round trip.
   */
  async verify(
    id: string,
    body: VerifyOwnershipBody,
    options?: RequestOptions,
  ): Promise<ApiResult<ExternalAccount>> {
    return this.#sender.send("POST", this.#one(id, "/verify"), { body, options });
  }

  /**
   * Proves control of a self-custody wallet with WALLET_SIGNATURE: starts a challenge, asks `signer` to
   * sign its exact `messageToSign`, and submits the signature; starts over when a challenge expires
   * before it is verified, and waits out a `429`'s `Retry-After`. Resolves with the `ACTIVE` account.
   *
   *     const account = await paysvc.externalAccounts.verifyOwnership(wallet.id, (message) =>
   *       walletClient.signMessage({ account, message }),
   *     );
   */
  async verifyOwnership(
    id: string,
    signer: MessageSigner,
    options?: VerifyOwnershipOptions,
  ): Promise<ApiResult<ExternalAccount>> {
    return verifyOwnership(this, id, signer, options);
  }

  /**
   * After a LIVENESS challenge: resolves with the account once the person's hosted flow (or the
   * provider SDK) has completed and the account is `ACTIVE` or `UNVERIFIED`, by polling `GET` or,
   * sooner, from the `EXTERNAL_ACCOUNT.STATUS_UPDATED` events you pass in `webhookEvents`.
   * Rejects with `PaysvcError` `LIVENESS_OUTCOME_TIMEOUT` after `timeoutMs`.
   */
  async waitForLivenessOutcome(
    id: string,
    options?: WaitForLivenessOutcomeOptions,
  ): Promise<ExternalAccount> {
    return waitForLivenessOutcome(this, id, options);
  }
}

/** `client.externalAccounts`: customers' external accounts. */
export type CustomerExternalAccountsResource = ExternalAccountsResource<
  CreateCustomerExternalAccountBody,
  ExternalAccountListParams
>;
/** `client.platformExternalAccounts`: the platform's own external accounts. */
export type PlatformExternalAccountsResource = ExternalAccountsResource<
  CreatePlatformExternalAccountBody,
  PlatformExternalAccountListParams
>;
