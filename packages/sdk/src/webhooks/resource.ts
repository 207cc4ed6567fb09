import { type ApiResult, path, type RequestOptions, type RequestSender } from "../core/request.js";
import type { Page } from "../types/index.js";
import type { ListDeliveriesQuery, WebhookDelivery, WebhookTestResult } from "./types.js";
import {
  signTestWebhook,
  type VerifyOptions,
  verifyWebhook,
  type WebhookEvent,
  type WebhookJwks,
  WebhookKeyCache,
} from "./verify.js";

type HeaderBag = string | null | undefined | Headers | Record<string, string | string[] | undefined>;

/** Reads `X-Service-Signature` from a Fetch `Headers`, a Node headers object or the value itself. */
export function signatureFrom(headers: HeaderBag): string | undefined {
  if (headers === null || headers === undefined || typeof headers === "string") return headers ?? undefined;
  if (headers instanceof Headers) return headers.get("x-service-signature") ?? undefined;
  const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === "x-service-signature");
  const value = entry?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Webhooks: verification with this platform's own JWKS (cached), the delivery log and re-send. Every
 * platform has its own signing keys, so a client verifies only its own platform's deliveries.
 */
export class WebhooksResource {
  readonly #sender: RequestSender;
  /**
   * The JWKS cache `verify` uses: this client's platform's keys (`GET /webhooks/signing-keys` with its
   * credentials), fetched on first use and refetched once on an unknown `kid`.
   */
  readonly keyCache: WebhookKeyCache;
  /** `signTestWebhook`: signs a payload with a fresh local key, for a platform's own receiver tests. */
  readonly signTestPayload = signTestWebhook;

  constructor(sender: RequestSender) {
    this.#sender = sender;
    this.keyCache = new WebhookKeyCache(() => this.signingKeys());
  }

  /** `GET /webhooks/signing-keys`: the keys of this client's platform only. */
  async signingKeys(options?: RequestOptions): Promise<ApiResult<WebhookJwks>> {
    return this.#sender.send("GET", "/webhooks/signing-keys", { options });
  }

  /**
   * Verifies a delivery with `keys`, or with this client's platform's keys (cached) when none are given;
   * another platform's delivery fails with `UNKNOWN_KEY`.
   */
  async verify<T = unknown>(
    rawBody: string | Uint8Array,
    headers: HeaderBag,
    keys?: WebhookJwks,
    options?: VerifyOptions,
  ): Promise<WebhookEvent<T>> {
    const header = signatureFrom(headers);
    if (keys) return verifyWebhook<T>(rawBody, header, keys, options);
    return this.keyCache.verify<T>(rawBody, header, options);
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
