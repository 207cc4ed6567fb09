import { paginate } from "../core/pagination.js";
import { type ApiResult, path, type RequestOptions, type RequestSender } from "../core/request.js";
import type {
  Card,
  CardListParams,
  CreateCardBody,
  Page,
  RevealLink,
  TokenizeCardBody,
  TokenizeCardResult,
  UpdateCardBody,
} from "../types/index.js";

/**
 * `/cards` (conventions §6.1–§6.2). Writes need `MANAGE`. An unknown card is `NotFoundError` `NOT_FOUND`;
 * a change to a closed card is `ConflictError` `CARD_NOT_MUTABLE`. Card transactions are read through
 * `client.transactions` (`type: "CARD"`, `cardId`).
 */
export class CardsResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /**
   * `POST /cards` → `201` Card in `PROCESSING`; the issuer makes it `ACTIVE` (or `CLOSED` with
   * `ISSUER_REJECTED`) shortly after, with `CARD.STATUS_CHANGE`. `BadRequestError`
   * `CARDHOLDER_KYC_NOT_APPROVED` or `FUNDING_SOURCE_INELIGIBLE`; `ConflictError` `CARD_LIMIT_REACHED`.
   */
  async create(body: CreateCardBody, options?: RequestOptions): Promise<ApiResult<Card>> {
    return this.#sender.send("POST", "/cards", { body, options });
  }

  /** `GET /cards/{cardId}`. */
  async get(cardId: string, options?: RequestOptions): Promise<ApiResult<Card>> {
    return this.#sender.send("GET", path`/cards/${cardId}`, { options });
  }

  /** `GET /cards`: one page, newest first unless `sortOrder` is `asc`. */
  async list(params: CardListParams = {}, options?: RequestOptions): Promise<ApiResult<Page<Card>>> {
    return this.#sender.send("GET", "/cards", { query: params, options });
  }

  /** Every card matching the filters, fetched page by page as the iteration proceeds. */
  listAll(params: CardListParams = {}, options?: RequestOptions): AsyncGenerator<Card, void, undefined> {
    return paginate((page) => this.list(page, options), params);
  }

  /**
   * `PATCH /cards/{cardId}`: freeze (`FROZEN`), unfreeze (`ACTIVE`), close (`CLOSED`, final), replace the
   * funding sources or change the spend cap. `ConflictError` `INVALID_STATE_TRANSITION`,
   * `CARD_ALREADY_CLOSED` or `CARD_NOT_MUTABLE`.
   */
  async update(cardId: string, body: UpdateCardBody, options?: RequestOptions): Promise<ApiResult<Card>> {
    return this.#sender.send("PATCH", path`/cards/${cardId}`, { body, options });
  }

  /**
   * `POST /cards/{cardId}/pin {pin}`: sets or replaces the PIN, 4 to 6 digits as a string (`pinStatus`
   * becomes `OK`). The PIN is never returned; the idempotency key makes a retried call the same request, not a second change.
   */
  async setPin(cardId: string, pin: string, options?: RequestOptions): Promise<ApiResult<Card>> {
    return this.#sender.send("POST", path`/cards/${cardId}/pin`, { body: { pin }, options });
  }

  /**
   * `POST /cards/{cardId}/reveal` (no body): a single-use `panEmbedUrl` valid 5 minutes, for an iframe
   * showing the PAN; call it right before rendering. Only `ACTIVE` and `FROZEN` cards reveal, else
   * `ConflictError` `CONFLICT`. A retry within the call replays the same URL (idempotency key).
   */
  async reveal(cardId: string, options?: RequestOptions): Promise<ApiResult<RevealLink>> {
    return this.#sender.send("POST", path`/cards/${cardId}/reveal`, { options });
  }

  /** `POST /cards/{cardId}/tokenize`: the encrypted payload for in-app add-to-wallet (Apple Pay, Google Pay). */
  async tokenize(
    cardId: string,
    body: TokenizeCardBody,
    options?: RequestOptions,
  ): Promise<ApiResult<TokenizeCardResult>> {
    return this.#sender.send("POST", path`/cards/${cardId}/tokenize`, { body, options });
  }
}
