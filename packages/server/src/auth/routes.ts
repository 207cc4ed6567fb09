import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { Page, PageQuery, Query, SortQuery, splitPageQuery } from "../core/http/pagination.js";
import { errorResponses } from "../core/http/schemas.js";
import { TimeRangeQuery } from "../core/http/time-range.js";
import { ApiToken, CreatedApiToken, CreateTokenBody, TokenParams } from "./schemas.js";
import { createToken, deleteToken, getToken, listTokens } from "./tokens.js";

export const tokenRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["API tokens"];

  app.post(
    "/tokens",
    { schema: { tags, body: CreateTokenBody, response: { 201: CreatedApiToken, ...errorResponses } } },
    // The answer holds the client secret, shown this once: no cache may keep it.
    async (request, reply) =>
      reply
        .code(201)
        .header("cache-control", "no-store")
        .send(await createToken(deps, request.caller, request.body)),
  );

  app.get(
    "/tokens",
    {
      schema: {
        tags,
        querystring: Query({
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          ...TimeRangeQuery,
          ...PageQuery,
          ...SortQuery,
        }),
        response: { 200: Page(ApiToken), ...errorResponses },
      },
    },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listTokens(deps, request.caller, filters, page);
    },
  );

  app.get(
    "/tokens/:tokenId",
    { schema: { tags, params: TokenParams, response: { 200: ApiToken, ...errorResponses } } },
    async (request) => getToken(deps, request.caller, request.params.tokenId),
  );

  app.delete(
    "/tokens/:tokenId",
    { schema: { tags, params: TokenParams, response: { 204: Type.Null(), ...errorResponses } } },
    async (request, reply) => {
      await deleteToken(deps, request.caller, request.params.tokenId);
      return reply.code(204).send(null);
    },
  );
};
