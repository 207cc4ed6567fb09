import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { Page, PageQuery, Query, SortQuery, splitPageQuery } from "../core/http/pagination.js";
import { errorResponses, StringEnum } from "../core/http/schemas.js";
import { SignedRetryChallenge, WalletOperationProcessing } from "../wallet-auth/schemas.js";
import { signedHttp } from "../wallet-auth/signed-calls.js";
import {
  getInternalAccount,
  listCustomerInternalAccounts,
  listPlatformInternalAccounts,
} from "./accounts.js";
import { AccountParams, InternalAccount, internalAccountTypes } from "./schemas.js";
import { updateInternalAccount } from "./update-account.js";

const accountFilters = {
  currency: Type.Optional(Type.String({ pattern: "^[A-Z]{3,5}$" })),
  type: Type.Optional(StringEnum(internalAccountTypes)),
};

/** `PATCH /internal-accounts/{id}`: only `privateEnabled`, an embedded wallet setting (conventions §2.2). */
export const UpdateInternalAccountBody = Type.Object(
  { privateEnabled: Type.Boolean() },
  { additionalProperties: false },
);

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

  app.patch(
    "/internal-accounts/:accountId",
    {
      schema: {
        tags,
        params: AccountParams,
        body: UpdateInternalAccountBody,
        response: {
          200: Type.Union([InternalAccount, WalletOperationProcessing]),
          202: SignedRetryChallenge,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { accountId } = request.params;
      const result = await updateInternalAccount(
        deps,
        request.caller,
        accountId,
        request.body,
        signedHttp(request),
      );
      // The status picks the response schema (202 challenge, 200 result or PROCESSING, or an error body).
      return reply.code(result.status).send(result.body as never);
    },
  );
};
