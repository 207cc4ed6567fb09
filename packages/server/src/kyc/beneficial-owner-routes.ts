import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";
import {
  BeneficialOwner,
  BeneficialOwnerPage,
  BeneficialOwnerParams,
  CreateBeneficialOwnerBody,
  ListBeneficialOwnersQuery,
  UpdateBeneficialOwnerBody,
} from "./beneficial-owner-schemas.js";
import {
  createBeneficialOwner,
  getBeneficialOwner,
  listBeneficialOwners,
  updateBeneficialOwner,
} from "./beneficial-owners.js";

/** `/beneficial-owners` (the hosted API's KYC/KYB Verifications): a business's owners, read by its verification. */
export const beneficialOwnerRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Customer verification"];

  app.get(
    "/beneficial-owners",
    {
      schema: {
        tags,
        querystring: ListBeneficialOwnersQuery,
        response: { 200: BeneficialOwnerPage, ...errorResponses },
      },
    },
    async (request) => listBeneficialOwners(deps, request.caller, request.query),
  );

  app.post(
    "/beneficial-owners",
    {
      schema: {
        tags,
        body: CreateBeneficialOwnerBody,
        response: { 201: BeneficialOwner, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createBeneficialOwner(deps, request.caller, request.body)),
  );

  app.get(
    "/beneficial-owners/:beneficialOwnerId",
    {
      schema: { tags, params: BeneficialOwnerParams, response: { 200: BeneficialOwner, ...errorResponses } },
    },
    async (request) => getBeneficialOwner(deps, request.caller, request.params.beneficialOwnerId),
  );

  app.patch(
    "/beneficial-owners/:beneficialOwnerId",
    {
      schema: {
        tags,
        params: BeneficialOwnerParams,
        body: UpdateBeneficialOwnerBody,
        response: { 200: BeneficialOwner, ...errorResponses },
      },
    },
    async (request) =>
      updateBeneficialOwner(deps, request.caller, request.params.beneficialOwnerId, request.body),
  );
};
