// The `@paysvc/sdk/node` entry: everything the root entry (index.ts) exports, plus what needs Node
// (node:crypto, Buffer): webhook verification and test signing, and a `PaysvcClient` whose `webhooks`
// verifies deliveries. The root entry stays browser-safe; a Node program imports from here alone.
export * from "./index.js";
export {
  createTestWebhookKey,
  signTestWebhook,
  type TestWebhookKey,
  verifyWebhook,
  WebhookKeyCache,
} from "./node/verify.js";
export { NodeWebhooksResource } from "./node/webhooks.js";
export { PaysvcClient } from "./node-client.js";
