import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";
import { secretsOf } from "../core/secrets/process-box.js";
import { getDelivery, listDeliveries, resendDelivery } from "./deliveries.js";
import { DeliveryPage, ListDeliveriesQuery, SigningKeys, WebhookDelivery } from "./schemas.js";
import { listSigningKeys } from "./signing-keys.js";

// No length cap: an overlong id is a missing one (404), like every malformed id (conventions §1.3).
const DeliveryParams = Type.Object({ deliveryId: Type.String({ minLength: 1 }) });

/** Signing keys (conventions §7.2) and the delivery log with re-send (docs/decisions.md "Webhooks"). */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Webhooks"];

  app.get(
    "/webhooks/signing-keys",
    {
      schema: {
        tags,
        description:
          "The public keys that verify `X-Service-Signature` on this platform's events, as a JWKS; any token may read it. Every platform has its own keys.",
        response: { 200: SigningKeys, ...errorResponses },
      },
    },
    async (request) => listSigningKeys(deps.db, request.caller.platformId, deps.clock.now(), secretsOf(deps)),
  );

  app.get(
    "/webhooks/deliveries",
    {
      schema: { tags, querystring: ListDeliveriesQuery, response: { 200: DeliveryPage, ...errorResponses } },
    },
    async (request) => listDeliveries(deps, request.caller, request.query),
  );

  app.get(
    "/webhooks/deliveries/:deliveryId",
    { schema: { tags, params: DeliveryParams, response: { 200: WebhookDelivery, ...errorResponses } } },
    async (request) => getDelivery(deps, request.caller, request.params.deliveryId),
  );

  app.post(
    "/webhooks/deliveries/:deliveryId/resend",
    {
      config: { optionalBody: true },
      schema: {
        tags,
        description: "Delivers the event again, with the same event id and body, as a new delivery.",
        params: DeliveryParams,
        body: Type.Object({}, { additionalProperties: false }),
        response: { 202: WebhookDelivery, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await resendDelivery(deps, request.caller, request.params.deliveryId)),
  );
};
