import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";
import { ErrorBody, errorResponses } from "../core/http/schemas.js";
import { executeQuote } from "./execute.js";
import { createQuote, getQuote } from "./quotes.js";
import { CreateQuoteBody, ExecuteQuoteBody, Quote, QuoteParams } from "./schemas.js";

export const quoteRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Quotes"];
  // 429: DAILY_VOLUME_LIMIT_EXCEEDED with Retry-After (quotes/daily-volume.ts).
  const responses = { ...errorResponses, 429: ErrorBody, 501: ErrorBody };

  app.post(
    "/quotes",
    {
      config: { permission: "TRANSACT" },
      schema: {
        tags,
        description:
          "Prices a transfer; with `immediatelyExecute` it also executes it. Same-currency transfers between internal accounts only, for now.",
        body: CreateQuoteBody,
        response: { 201: Quote, ...responses },
      },
    },
    async (request, reply) => reply.code(201).send(await createQuote(deps, request.caller, request.body)),
  );

  app.get(
    "/quotes/:quoteId",
    { schema: { tags, params: QuoteParams, response: { 200: Quote, ...errorResponses } } },
    async (request) => getQuote(deps, request.caller, request.params.quoteId),
  );

  app.post(
    "/quotes/:quoteId/execute",
    {
      config: { permission: "TRANSACT", optionalBody: true },
      schema: {
        tags,
        description: "Executes a PENDING quote before its `expiresAt`.",
        params: QuoteParams,
        body: ExecuteQuoteBody,
        response: { 200: Quote, ...responses, 423: ErrorBody },
      },
    },
    async (request) => executeQuote(deps, request.caller, request.params.quoteId, request.body?.scaFactor),
  );
};
