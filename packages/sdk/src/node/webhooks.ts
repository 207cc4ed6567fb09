import type { RequestSender } from "../core/request.js";
import type { VerifyOptions, WebhookEvent, WebhookJwks } from "../webhooks/envelope.js";
import { type HeaderBag, signatureFrom, WebhooksResource } from "../webhooks/resource.js";
import { signTestWebhook, verifyWebhook, WebhookKeyCache } from "./verify.js";

/**
 * The webhooks namespace of `@paysvc/sdk/node`'s client: the root one plus verification with this
 * platform's own JWKS (cached). Every platform has its own signing keys, so a client verifies only its
 * own platform's deliveries.
 */
export class NodeWebhooksResource extends WebhooksResource {
  /**
   * The JWKS cache `verify` uses: this client's platform's keys (`GET /webhooks/signing-keys` with its
   * credentials), fetched on first use and refetched once on an unknown `kid`.
   */
  readonly keyCache: WebhookKeyCache;
  /** `signTestWebhook`: signs a payload with a fresh local key, for a platform's own receiver tests. */
  readonly signTestPayload = signTestWebhook;

  constructor(sender: RequestSender) {
    super(sender);
    this.keyCache = new WebhookKeyCache(() => this.signingKeys());
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
}
