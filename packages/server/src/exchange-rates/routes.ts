import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";
import { listExchangeRates } from "./rates.js";
import { ExchangeRateList, ExchangeRatesQuery } from "./schemas.js";

export const exchangeRateRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    "/exchange-rates",
    {
      schema: {
        tags: ["Exchange rates"],
        description:
          "The platform's exchange rates, each cached for 5 minutes (platform clock), with the platform fees charged on USD sources. A corridor without a rate is not listed.",
        querystring: ExchangeRatesQuery,
        response: { 200: ExchangeRateList, ...errorResponses },
      },
    },
    async (request) => listExchangeRates(deps, request.caller, request.query),
  );
};
