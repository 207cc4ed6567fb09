import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { schemaFieldErrors } from "../core/http/error-handler.js";
import { Page, PageQuery, Query, SortQuery, splitPageQuery } from "../core/http/pagination.js";
import { errorResponses } from "../core/http/schemas.js";
import {
  createCustomerExternalAccount,
  createPlatformExternalAccount,
  deleteExternalAccount,
  getExternalAccount,
  invalidAccountBody,
  listExternalAccounts,
} from "./external-accounts.js";
import { livenessRoutes } from "./ownership/liveness-routes.js";
import { ownershipRoutes } from "./ownership/routes.js";
import { receiverLookupRoutes } from "./receiver-lookup-routes.js";
import {
  CreateCustomerExternalAccountBody,
  CreatePlatformExternalAccountBody,
  ExternalAccount,
  ExternalAccountParams,
} from "./schemas.js";

const currency = Type.Optional(Type.String({ pattern: "^[A-Z]{3,5}$" }));

export const externalAccountRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["External accounts"];
  const one = { tags, params: ExternalAccountParams };

  app.post(
    "/customers/external-accounts",
    {
      attachValidation: true,
      schema: {
        tags,
        body: CreateCustomerExternalAccountBody,
        response: { 201: ExternalAccount, ...errorResponses },
      },
    },
    async (request, reply) => {
      const schemaErrors = schemaFieldErrors(request.validationError);
      if (schemaErrors) throw invalidAccountBody(schemaErrors, request.body);
      return reply.code(201).send(await createCustomerExternalAccount(deps, request.caller, request.body));
    },
  );
  app.get(
    "/customers/external-accounts",
    {
      schema: {
        tags,
        querystring: Query({
          customerId: Type.Optional(Type.String({ maxLength: 100 })),
          currency,
          ...PageQuery,
          ...SortQuery,
        }),
        response: { 200: Page(ExternalAccount), ...errorResponses },
      },
    },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listExternalAccounts(deps, request.caller, { ...filters, owner: "customer" }, page);
    },
  );
  app.get(
    "/customers/external-accounts/:externalAccountId",
    { schema: { ...one, response: { 200: ExternalAccount, ...errorResponses } } },
    async (request) => getExternalAccount(deps, request.caller, request.params.externalAccountId, "customer"),
  );
  app.delete(
    "/customers/external-accounts/:externalAccountId",
    { schema: { ...one, response: { 204: Type.Null(), ...errorResponses } } },
    async (request, reply) => {
      await deleteExternalAccount(deps, request.caller, request.params.externalAccountId, "customer");
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/platform/external-accounts",
    {
      attachValidation: true,
      schema: {
        tags,
        body: CreatePlatformExternalAccountBody,
        response: { 201: ExternalAccount, ...errorResponses },
      },
    },
    async (request, reply) => {
      const schemaErrors = schemaFieldErrors(request.validationError);
      if (schemaErrors) throw invalidAccountBody(schemaErrors, request.body);
      return reply.code(201).send(await createPlatformExternalAccount(deps, request.caller, request.body));
    },
  );
  app.get(
    "/platform/external-accounts",
    {
      schema: {
        tags,
        querystring: Query({ currency, ...PageQuery, ...SortQuery }),
        response: { 200: Page(ExternalAccount), ...errorResponses },
      },
    },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listExternalAccounts(deps, request.caller, { ...filters, owner: "platform" }, page);
    },
  );
  app.get(
    "/platform/external-accounts/:externalAccountId",
    { schema: { ...one, response: { 200: ExternalAccount, ...errorResponses } } },
    async (request) => getExternalAccount(deps, request.caller, request.params.externalAccountId, "platform"),
  );
  app.delete(
    "/platform/external-accounts/:externalAccountId",
    { schema: { ...one, response: { 204: Type.Null(), ...errorResponses } } },
    async (request, reply) => {
      await deleteExternalAccount(deps, request.caller, request.params.externalAccountId, "platform");
      return reply.code(204).send(null);
    },
  );

  await app.register(ownershipRoutes, { deps });
  await app.register(livenessRoutes, { deps });
  await app.register(receiverLookupRoutes, { deps });
};
