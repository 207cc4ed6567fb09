import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { errorResponses } from "../core/http/schemas.js";
import { REQUEST_LOG_SIZE, type RequestLog } from "./request-log.js";

const Entry = Type.Object({
  seq: Type.Integer({ minimum: 1 }),
  at: Type.String({ format: "date-time" }),
  method: Type.String(),
  path: Type.String(),
  status: Type.Integer(),
  latencyMs: Type.Number({ minimum: 0 }),
  requestId: Type.String(),
});

const Query = Type.Object(
  {
    after: Type.Optional(Type.Integer({ minimum: -1 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: REQUEST_LOG_SIZE })),
  },
  { additionalProperties: false },
);

/** `GET /sandbox/request-log`: the platform's own answered API requests, for `paysvc logs tail`. */
export const sandboxRequestLogRoutes: FastifyPluginAsyncTypebox<{ log: RequestLog }> = async (
  app,
  { log },
) => {
  app.get(
    "/sandbox/request-log",
    {
      config: { sandbox: true },
      schema: {
        tags: ["Sandbox"],
        description:
          "This platform's API requests as this server answered them (its last 1000, since it started): method, path (no query), status, latency and request id, oldest first. `after` is the `next` of the previous page; -1 starts at the newest, 0 at the oldest kept. The log's own reads are not in it.",
        querystring: Query,
        response: {
          200: Type.Object({ data: Type.Array(Entry), next: Type.Integer({ minimum: 0 }) }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { after = 0, limit = 100 } = request.query;
      if (after === -1) return { data: [], next: log.latest() };
      return log.since(request.caller.platformId, after, limit);
    },
  );
};
