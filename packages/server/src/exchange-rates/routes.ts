import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";
import { listExchangeRates } from "./list.js";
import { ExchangeRateListResponse, ExchangeRatesQuery } from "./schemas.js";

export const exchangeRateRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    "/exchange-rates",
    {
      schema: {
        tags: ["Exchange rates"],
        description:
          "For each corridor with a rate (cached 5 minutes, platform clock) and each destination rail: what a quote of sendingAmount would deliver and charge, platform fees included. A corridor without a rate, or a rail refusing the amount, is not listed.",
        querystring: ExchangeRatesQuery,
        response: { 200: ExchangeRateListResponse, ...errorResponses },
      },
    },
    async (request) => listExchangeRates(deps, request.caller, request.query),
  );
};
