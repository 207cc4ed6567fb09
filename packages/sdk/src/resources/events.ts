import { paginate } from "../core/pagination.js";
import { type ApiResult, path, type RequestOptions, type RequestSender } from "../core/request.js";
import type { ListEventsParams, Page } from "../types/index.js";
import type { WebhookEvent } from "../webhooks/envelope.js";

/**
 * The webhook events this platform's work raised (`GET /events`), each as the envelope `{id, type,
 * timestamp, data}` its deliveries carry, whether or not an endpoint was set when it was raised.
 */
export class EventsResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `GET /events`: one page, newest first unless `sortOrder` is `asc`. */
  async list(
    params: ListEventsParams = {},
    options?: RequestOptions,
  ): Promise<ApiResult<Page<WebhookEvent>>> {
    return this.#sender.send("GET", "/events", { query: params, options });
  }

  /** Every event matching the filters, page by page. */
  listAll(
    params: ListEventsParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<WebhookEvent, void, undefined> {
    return paginate((page) => this.list(page, options), params);
  }

  /** `GET /events/{id}`; another platform's or an unknown id → `NotFoundError` `NOT_FOUND`. */
  async get(eventId: string, options?: RequestOptions): Promise<ApiResult<WebhookEvent>> {
    return this.#sender.send("GET", path`/events/${eventId}`, { options });
  }
}
