import { PaysvcClient as BrowserSafeClient } from "./client.js";
import type { RequestSender } from "./core/request.js";
import { NodeWebhooksResource } from "./node/webhooks.js";

/**
 * The client of `@paysvc/sdk/node`: the root entry's `PaysvcClient` whose `webhooks` also verifies
 * deliveries (`webhooks.verify`, `webhooks.keyCache`), which needs node:crypto.
 *
 *     import { PaysvcClient } from "@paysvc/sdk/node";
 *     const event = await paysvc.webhooks.verify(rawBody, req.headers);
 */
export class PaysvcClient extends BrowserSafeClient {
  declare readonly webhooks: NodeWebhooksResource;

  protected override webhooksResource(sender: RequestSender): NodeWebhooksResource {
    return new NodeWebhooksResource(sender);
  }
}
