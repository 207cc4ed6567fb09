import { type ApiResult, path, type RequestOptions, type RequestSender } from "../core/request.js";
import type { Page } from "../types/index.js";
import type { WebhookJwks } from "./envelope.js";
import type { ListDeliveriesQuery, WebhookDelivery, WebhookTestResult } from "./types.js";

export type HeaderBag = string | null | undefined | Headers | Record<string, string | string[] | undefined>;

/** Reads `X-Service-Signature` from a Fetch `Headers`, a Node headers object or the value itself. */
export function signatureFrom(headers: HeaderBag): string | undefined {
  if (headers === null || headers === undefined || typeof headers === "string") return headers ?? undefined;
  if (headers instanceof Headers) return headers.get("x-service-signature") ?? undefined;
  const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === "x-service-signature");
  const value = entry?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Webhooks: this platform's signing keys, the delivery log and re-send. Verifying a delivery needs
 * node:crypto, so `verify` is on the client of `@paysvc/sdk/node` (node/webhooks.ts), which extends this.
 */
export class WebhooksResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `GET /webhooks/signing-keys`: the keys of this client's platform only. */
  async signingKeys(options?: RequestOptions): Promise<ApiResult<WebhookJwks>> {
    return this.#sender.send("GET", "/webhooks/signing-keys", { options });
  }

  /** `GET /webhooks/deliveries`. */
  async listDeliveries(
    query?: ListDeliveriesQuery,
    options?: RequestOptions,
  ): Promise<ApiResult<Page<WebhookDelivery>>> {
    return this.#sender.send("GET", "/webhooks/deliveries", { query, options });
  }

  /** `GET /webhooks/deliveries/{id}`. */
  async getDelivery(id: string, options?: RequestOptions): Promise<ApiResult<WebhookDelivery>> {
    return this.#sender.send("GET", path`/webhooks/deliveries/${id}`, { options });
  }

  /** `POST /webhooks/deliveries/{id}/resend`: the same event (id and bytes) as a new delivery. */
  async resendDelivery(id: string, options?: RequestOptions): Promise<ApiResult<WebhookDelivery>> {
    return this.#sender.send("POST", path`/webhooks/deliveries/${id}/resend`, { options });
  }

  /** `POST /sandbox/webhooks/test`: sends a TEST event now and reports the receiver's answer. */
  async sendTest(options?: RequestOptions): Promise<ApiResult<WebhookTestResult>> {
    return this.#sender.send("POST", "/sandbox/webhooks/test", { options });
  }
}
