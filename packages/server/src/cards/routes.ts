import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";
import { Page, splitPageQuery } from "../core/http/pagination.js";
import { errorResponses } from "../core/http/schemas.js";
import { createCard, getCard, listCards } from "./issue.js";
import { cardManagementRoutes } from "./management-routes.js";
import { Card, CardParams, CreateCardBody, ListCardsQuery } from "./schemas.js";

const tags = ["Cards"];
const failures = { ...errorResponses, 501: errorResponses[500] };

/** Cards (conventions §6): issue, list, read; status, funding, PIN, reveal and tokenize in management-routes. */
export const cardRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    "/cards",
    {
      schema: {
        tags,
        description:
          "Issues a virtual card in PROCESSING; the sandbox issuer activates it (or rejects it) by suffix.",
        body: CreateCardBody,
        response: { 201: Card, ...failures },
      },
    },
    async (request, reply) => reply.code(201).send(await createCard(deps, request.caller, request.body)),
  );

  app.get(
    "/cards",
    { schema: { tags, querystring: ListCardsQuery, response: { 200: Page(Card), ...errorResponses } } },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listCards(deps, request.caller, filters, page);
    },
  );

  app.get(
    "/cards/:cardId",
    { schema: { tags, params: CardParams, response: { 200: Card, ...errorResponses } } },
    async (request) => getCard(deps, request.caller, request.params.cardId),
  );

  await app.register(cardManagementRoutes, { deps });
};
