import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";
import { listDiscoveries } from "./discoveries.js";
import { DiscoveryList, DiscoveryQuery } from "./schemas.js";

export const discoveryRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app) => {
  app.get(
    "/discoveries",
    {
      schema: {
        tags: ["Discoveries"],
        description: "Banks and wallet providers payouts reach, per corridor and country, with their rails.",
        querystring: DiscoveryQuery,
        response: { 200: DiscoveryList, ...errorResponses },
      },
    },
    async (request) => listDiscoveries(request.query),
  );
};
