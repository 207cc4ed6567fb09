import {
  type ApiResult,
  type EmptyResult,
  path,
  type RequestOptions,
  type RequestSender,
} from "../core/request.js";
import type { DataList } from "../types/index.js";
import type { SigningKey } from "./crypto.js";
import { type SignedRetryOptions, signedRetry } from "./signed-retry.js";
import type { CreateDelegatedKeyBody, DelegatedKey, DelegatedKeyListParams } from "./types.js";

/**
 * Embedded wallet delegated keys (`paysvc.wallet.delegatedKeys`, issue 21 §6): the wallet's owner authorizes a
 * key paysvc holds to sign card spending from the wallet for one card. Creating one is a signed action of the
 * wallet (an active session's key signs it); reading and revoking take the platform credential alone.
 *
 *     const key = await paysvc.wallet.delegatedKeys.create({ cardId, internalAccountId, nickname }, sessionKey);
 *     await paysvc.wallet.delegatedKeys.revoke(key.id);
 */
export class DelegatedKeysResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `GET /auth/delegated-keys`: the platform's keys in every status, oldest first (not paginated). */
  async list(
    params: DelegatedKeyListParams = {},
    options?: RequestOptions,
  ): Promise<ApiResult<DataList<DelegatedKey>>> {
    return this.#sender.send("GET", "/auth/delegated-keys", { query: params, options });
  }

  /**
   * `POST /auth/delegated-keys` through the signed retry, signed by an active session of the wallet: the new
   * ACTIVE key. `ConflictError` `CONFLICT` while the card and wallet already have an ACTIVE key,
   * `CARD_NOT_MUTABLE` for a closed card; `BadRequestError` `FUNDING_SOURCE_INELIGIBLE` when the wallet is
   * not the cardholder's.
   */
  async create(
    body: CreateDelegatedKeyBody,
    sessionKey: SigningKey,
    options: SignedRetryOptions = {},
  ): Promise<ApiResult<DelegatedKey>> {
    const request = { method: "POST", path: "/auth/delegated-keys", body } as const;
    return signedRetry<DelegatedKey>(this.#sender, request, sessionKey, options);
  }

  /** `GET /auth/delegated-keys/{id}`, revoked keys included. */
  async get(id: string, options?: RequestOptions): Promise<ApiResult<DelegatedKey>> {
    return this.#sender.send("GET", path`/auth/delegated-keys/${id}`, { options });
  }

  /** `DELETE /auth/delegated-keys/{id}` → `204`: the key is REVOKED for good (again: `204`, no change). */
  async revoke(id: string, options?: RequestOptions): Promise<EmptyResult> {
    return this.#sender.send("DELETE", path`/auth/delegated-keys/${id}`, { options });
  }
}
