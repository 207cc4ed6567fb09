import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { Page, PageQuery, Query, SortQuery, splitPageQuery } from "../core/http/pagination.js";
import { errorResponses, StringEnum } from "../core/http/schemas.js";
import {
  getInternalAccount,
  listCustomerInternalAccounts,
  listPlatformInternalAccounts,
} from "./accounts.js";
import { AccountParams, InternalAccount, internalAccountTypes } from "./schemas.js";

const accountFilters = {
  currency: Type.Optional(Type.String({ pattern: "^[A-Z]{3,5}$" })),
  type: Type.Optional(StringEnum(internalAccountTypes)),
};

export const internalAccountRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Internal accounts"];

  app.get(
    "/customers/internal-accounts",
    {
      schema: {
        tags,
        querystring: Query({
          customerId: Type.Optional(Type.String({ maxLength: 100 })),
          ...accountFilters,
          ...PageQuery,
          ...SortQuery,
        }),
        response: { 200: Page(InternalAccount), ...errorResponses },
      },
    },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listCustomerInternalAccounts(deps, request.caller, filters, page);
    },
  );

  app.get(
    "/platform/internal-accounts",
    {
      schema: {
        tags,
        querystring: Query(accountFilters),
        response: { 200: Type.Object({ data: Type.Array(InternalAccount) }), ...errorResponses },
      },
    },
    async (request) => listPlatformInternalAccounts(deps, request.caller, request.query),
  );

  app.get(
    "/internal-accounts/:accountId",
    { schema: { tags, params: AccountParams, response: { 200: InternalAccount, ...errorResponses } } },
    async (request) => getInternalAccount(deps, request.caller, request.params.accountId),
  );
};
