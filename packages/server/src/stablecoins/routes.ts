import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { Page, PageQuery, Query, SortQuery, splitPageQuery } from "../core/http/pagination.js";
import { errorResponses, StringEnum } from "../core/http/schemas.js";
import { getOperation, listOperations } from "./operation-reads.js";
import { burn, mint } from "./operations.js";
import {
  createProviderAccount,
  getProviderAccount,
  listProviderAccounts,
  revokeProviderAccount,
} from "./provider-accounts.js";
import {
  BurnBody,
  CreateProviderAccountBody,
  MintBody,
  OperationParams,
  operationStatuses,
  ProviderAccountParams,
  providerAccountStatuses,
  RegisterStablecoinBody,
  Stablecoin,
  StablecoinOperation,
  StablecoinParams,
  StablecoinProviderAccount,
  stablecoinOperationTypes,
} from "./schemas.js";
import { getStablecoin, listStablecoins, registerStablecoin, requestEnablement } from "./stablecoins.js";

const EmptyBody = Type.Object({}, { additionalProperties: false });
const ListQuery = Query({ ...PageQuery, ...SortQuery });
const OperationsQuery = Query({
  operationType: Type.Optional(StringEnum(stablecoinOperationTypes)),
  status: Type.Optional(StringEnum(operationStatuses)),
  ...PageQuery,
  ...SortQuery,
});
const ProviderAccountsQuery = Query({
  status: Type.Optional(StringEnum(providerAccountStatuses)),
  ...PageQuery,
  ...SortQuery,
});

/** Stablecoins: registration, enablement requests, mints, burns, operations and provider account links. */
export const stablecoinRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Stablecoins"];

  app.post(
    "/stablecoins",
    { schema: { tags, body: RegisterStablecoinBody, response: { 201: Stablecoin, ...errorResponses } } },
    async (request, reply) =>
      reply.code(201).send(await registerStablecoin(deps, request.caller, request.body)),
  );

  app.get(
    "/stablecoins",
    { schema: { tags, querystring: ListQuery, response: { 200: Page(Stablecoin), ...errorResponses } } },
    async (request) => listStablecoins(deps, request.caller, splitPageQuery(request.query).page),
  );

  app.get(
    "/stablecoins/:stablecoinId",
    { schema: { tags, params: StablecoinParams, response: { 200: Stablecoin, ...errorResponses } } },
    async (request) => getStablecoin(deps, request.caller, request.params.stablecoinId),
  );

  app.post(
    "/stablecoins/:stablecoinId/request-enablement",
    {
      config: { optionalBody: true },
      schema: {
        tags,
        description:
          "Requests enablement for operations: NOT_ENABLED → PENDING_APPROVAL; repeating it while PENDING_APPROVAL succeeds.",
        params: StablecoinParams,
        body: EmptyBody,
        response: { 200: Stablecoin, ...errorResponses },
      },
    },
    async (request) => requestEnablement(deps, request.caller, request.params.stablecoinId),
  );

  app.post(
    "/stablecoins/:stablecoinId/mints",
    {
      schema: {
        tags,
        params: StablecoinParams,
        body: MintBody,
        response: { 201: StablecoinOperation, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await mint(deps, request.caller, request.params.stablecoinId, request.body)),
  );

  app.post(
    "/stablecoins/:stablecoinId/burns",
    {
      schema: {
        tags,
        params: StablecoinParams,
        body: BurnBody,
        response: { 201: StablecoinOperation, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await burn(deps, request.caller, request.params.stablecoinId, request.body)),
  );

  app.get(
    "/stablecoins/:stablecoinId/operations",
    {
      schema: {
        tags,
        params: StablecoinParams,
        querystring: OperationsQuery,
        response: { 200: Page(StablecoinOperation), ...errorResponses },
      },
    },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listOperations(deps, request.caller, request.params.stablecoinId, filters, page);
    },
  );

  app.get(
    "/stablecoin-operations/:stablecoinOperationId",
    { schema: { tags, params: OperationParams, response: { 200: StablecoinOperation, ...errorResponses } } },
    async (request) => getOperation(deps, request.caller, request.params.stablecoinOperationId),
  );

  app.post(
    "/stablecoin-provider-accounts",
    {
      schema: {
        tags,
        body: CreateProviderAccountBody,
        response: { 201: StablecoinProviderAccount, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createProviderAccount(deps, request.caller, request.body)),
  );

  app.get(
    "/stablecoin-provider-accounts",
    {
      schema: {
        tags,
        querystring: ProviderAccountsQuery,
        response: { 200: Page(StablecoinProviderAccount), ...errorResponses },
      },
    },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listProviderAccounts(deps, request.caller, filters, page);
    },
  );

  app.get(
    "/stablecoin-provider-accounts/:providerAccountId",
    {
      schema: {
        tags,
        params: ProviderAccountParams,
        response: { 200: StablecoinProviderAccount, ...errorResponses },
      },
    },
    async (request) => getProviderAccount(deps, request.caller, request.params.providerAccountId),
  );

  app.post(
    "/stablecoin-provider-accounts/:providerAccountId/revoke",
    {
      config: { optionalBody: true },
      schema: {
        tags,
        description: "Revokes the link for good; repeating it answers the revoked link unchanged.",
        params: ProviderAccountParams,
        body: EmptyBody,
        response: { 200: StablecoinProviderAccount, ...errorResponses },
      },
    },
    async (request) => revokeProviderAccount(deps, request.caller, request.params.providerAccountId),
  );
};
