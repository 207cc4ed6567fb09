import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";
import { Page, PageQuery, Query, SortQuery, splitPageQuery } from "../core/http/pagination.js";
import { errorResponses } from "../core/http/schemas.js";
import { AccountParams } from "../customers/schemas.js";
import { listBalanceChanges } from "./balance-changes.js";
import { confirmStatement, listStatementDeliveries } from "./receipts.js";
import {
  BalanceChangesQuery,
  BalanceChangeWindow,
  ConfirmedDeliveryRecord,
  DeliveryRecord,
  StatementConfirmationBody,
} from "./schemas.js";

/** Periodic statements: the balance-changes feed and statement receipts (conventions §3.1–3.2). */
export const statementRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Statements"];

  app.get(
    "/internal-accounts/:accountId/balance-changes",
    {
      schema: {
        tags,
        description:
          "Balance changes of the half-open window [from, to), with opening and closing balances. A window " +
          "whose card settlement has not closed is 409 NOT_YET_AVAILABLE with Retry-After.",
        params: AccountParams,
        querystring: BalanceChangesQuery,
        response: { 200: BalanceChangeWindow, ...errorResponses },
      },
    },
    // Already JSON text (the database writes the page): sent as it is.
    async (request, reply) =>
      reply
        .type("application/json; charset=utf-8")
        // A string is sent as it is, never serialized: the schema above still documents and types the shape.
        .send(
          (await listBalanceChanges(
            deps,
            request.caller,
            request.params.accountId,
            request.query,
          )) as unknown as BalanceChangeWindow,
        ),
  );

  app.post(
    "/internal-accounts/:accountId/statement-confirmations",
    {
      schema: {
        tags,
        description:
          "Receipt for an issued monthly statement: 201 with the delivery record the first time, 200 " +
          "with the unchanged record on a repeat.",
        params: AccountParams,
        body: StatementConfirmationBody,
        response: { 200: ConfirmedDeliveryRecord, 201: ConfirmedDeliveryRecord, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { accountId } = request.params;
      const result = await confirmStatement(deps, request.caller, accountId, request.body.periodStart);
      return reply.code(result.created ? 201 : 200).send(result.record);
    },
  );

  app.get(
    "/internal-accounts/:accountId/statement-deliveries",
    {
      schema: {
        tags,
        description: "Statement delivery records of the account, newest period first by default.",
        params: AccountParams,
        querystring: Query({ ...PageQuery, ...SortQuery }),
        response: { 200: Page(DeliveryRecord), ...errorResponses },
      },
    },
    async (request) => {
      const { page } = splitPageQuery(request.query);
      return listStatementDeliveries(deps, request.caller, request.params.accountId, page);
    },
  );
};
