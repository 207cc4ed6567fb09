import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { Page, PageQuery, Query, SortQuery, splitPageQuery } from "../core/http/pagination.js";
import { errorResponses } from "../core/http/schemas.js";
import { anyTransactionSchema, type CardRows } from "./card-rows.js";
import { TransactionFilterQuery } from "./filter-query.js";
import { getTransaction, listTransactions } from "./transactions.js";

export const transactionRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; cards: CardRows }> = async (
  app,
  { deps, cards },
) => {
  const tags = ["Transactions"];
  const AnyTransaction = anyTransactionSchema(cards);

  app.get(
    "/transactions",
    {
      schema: {
        tags,
        querystring: Query({
          customerId: Type.Optional(Type.String({ maxLength: 100 })),
          platformCustomerId: Type.Optional(Type.String({ maxLength: 255 })),
          cardId: Type.Optional(Type.String({ maxLength: 100 })),
          ...TransactionFilterQuery,
          ...PageQuery,
          ...SortQuery,
        }),
        response: { 200: Page(AnyTransaction), ...errorResponses },
      },
    },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listTransactions(deps, request.caller, filters, page, cards);
    },
  );

  app.get(
    "/transactions/:transactionId",
    {
      schema: {
        tags,
        params: Type.Object({ transactionId: Type.String() }),
        response: { 200: AnyTransaction, ...errorResponses },
      },
    },
    async (request) => getTransaction(deps, request.caller, request.params.transactionId, cards),
  );
};
