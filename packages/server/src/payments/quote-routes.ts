import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";
import { publicOrigin } from "../core/http/public-origin.js";
import { ErrorBody, errorResponses } from "../core/http/schemas.js";
import type { ExecutionGate } from "../quotes/execution-gate.js";
import { getQuote } from "../quotes/quotes.js";
import { CreateQuoteBody, ExecuteQuoteBody, Quote, QuoteParams } from "../quotes/schemas.js";
import type { UmaQuoter } from "../quotes/uma-quoter.js";
import { signedHttp } from "../wallet-auth/signed-calls.js";
import { createQuote, executeQuoteById } from "./quote-execution.js";

/** Quotes: priced by the quotes area, executed here (payments owns every money movement). */
export const quoteRoutes: FastifyPluginAsyncTypebox<{
  deps: Deps;
  gates: readonly ExecutionGate[];
  umaQuoter?: UmaQuoter;
}> = async (app, { deps, gates, umaQuoter }) => {
  const tags = ["Quotes"];
  // 429: DAILY_VOLUME_LIMIT_EXCEEDED with Retry-After (quotes/daily-volume.ts).
  // 412/424: a UMA receiver's VASP that cannot be dealt with (uma/; conventions §1.2 lists 424).
  const responses = { ...errorResponses, 412: ErrorBody, 424: ErrorBody, 429: ErrorBody, 501: ErrorBody };

  app.post(
    "/quotes",
    {
      config: { permission: "TRANSACT" },
      schema: {
        tags,
        description:
          "Prices a transfer between internal accounts, a payout to an external account, or a payment to a UMA address (after `GET /receiver/uma/{address}`, with its `lookupId`); with `immediatelyExecute` it also executes it. From an EMBEDDED_WALLET the quote answers `paymentInstructions` with the `payloadToSign` its execute needs stamped.",
        body: CreateQuoteBody,
        response: { 201: Quote, ...responses },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await createQuote(
            deps,
            request.caller,
            request.body,
            gates,
            umaQuoter && { quoter: umaQuoter, origin: publicOrigin(deps, app) },
          ),
        ),
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
        description:
          "Executes a PENDING quote before its `expiresAt`. From an EMBEDDED_WALLET source it needs `Service-Wallet-Signature`: the stamp of `paymentInstructions[].accountOrWalletInfo.payloadToSign` by an active session key of that wallet (no `Request-Id`).",
        params: QuoteParams,
        body: ExecuteQuoteBody,
        response: { 200: Quote, ...responses, 423: ErrorBody },
      },
    },
    async (request) =>
      executeQuoteById(
        deps,
        request.caller,
        request.params.quoteId,
        {
          scaFactor: request.body?.scaFactor,
          walletSignature: signedHttp(request).signatureHeader,
        },
        gates,
      ),
  );
};
