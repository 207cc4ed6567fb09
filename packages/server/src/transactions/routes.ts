import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { Page, PageQuery, Query, SortQuery, splitPageQuery } from "../core/http/pagination.js";
import { errorResponses, StringEnum } from "../core/http/schemas.js";
import { transactionStatuses } from "../payments/schemas.js";
import { anyTransactionSchema, type CardRows } from "./card-rows.js";
import { getTransaction, listTransactions } from "./transactions.js";

/** The hosted API's clients send date-times with an offset; a plain date keeps its meaning, a whole UTC day. */
const DateOrDateTime = (description: string) =>
  Type.Union([Type.String({ format: "date-time" }), Type.String({ format: "date" })], { description });

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
          accountIdentifier: Type.Optional(Type.String({ maxLength: 100 })),
          senderAccountIdentifier: Type.Optional(Type.String({ maxLength: 100 })),
          receiverAccountIdentifier: Type.Optional(Type.String({ maxLength: 100 })),
          status: Type.Optional(StringEnum(transactionStatuses)),
          type: Type.Optional(StringEnum(["INCOMING", "OUTGOING", "CARD"])),
          cardId: Type.Optional(Type.String({ maxLength: 100 })),
          reference: Type.Optional(Type.String({ maxLength: 255 })),
          startDate: Type.Optional(
            DateOrDateTime("From this instant, or from the start of this UTC day (inclusive)"),
          ),
          endDate: Type.Optional(
            DateOrDateTime("Up to this instant, or to the end of this UTC day (inclusive)"),
          ),
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
