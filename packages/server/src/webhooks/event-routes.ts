import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";
import { getEvent, listEvents } from "./event-reads.js";
import { EventPage, ListEventsQuery, WebhookEvent } from "./event-schemas.js";

// No length cap: an overlong id is a missing one (404), like every malformed id (conventions §1.3).
const EventParams = Type.Object({ eventId: Type.String({ minLength: 1 }) });

/** The webhook events a platform's work raised, with their envelopes (docs/decisions.md "Events"). */
export const eventRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Webhooks"];

  app.get(
    "/events",
    {
      schema: {
        tags,
        description:
          "The platform's webhook events, each as the envelope its deliveries carry, whether or not an endpoint was set; filtered by type and creation time (inclusive bounds).",
        querystring: ListEventsQuery,
        response: { 200: EventPage, ...errorResponses },
      },
    },
    async (request) => listEvents(deps, request.caller, request.query),
  );

  app.get(
    "/events/:eventId",
    {
      schema: {
        tags,
        description: "One event's envelope; another platform's event is 404 NOT_FOUND.",
        params: EventParams,
        response: { 200: WebhookEvent, ...errorResponses },
      },
    },
    async (request) => getEvent(deps, request.caller, request.params.eventId),
  );
};
