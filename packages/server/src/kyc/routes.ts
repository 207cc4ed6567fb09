import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { Page, PageQuery, Query, SortQuery, splitPageQuery } from "../core/http/pagination.js";
import { errorResponses, StringEnum } from "../core/http/schemas.js";
import { beneficialOwnerRoutes } from "./beneficial-owner-routes.js";
import { createDocument, deleteDocument, getDocument, listDocuments, replaceDocument } from "./documents.js";
import { kycLinkRoutes } from "./kyc-link-routes.js";
import {
  CreateDocumentBody,
  CreateVerificationBody,
  Document,
  DocumentParams,
  ReplaceDocumentBody,
  Verification,
  VerificationParams,
  verificationStatuses,
} from "./schemas.js";
import { getVerification, listVerifications, submitVerification } from "./verifications.js";

// A filter, not a lookup: an unknown or foreign customerId lists nothing, as on /customers/internal-accounts.
const ListQuery = Query({
  customerId: Type.Optional(Type.String({ maxLength: 100 })),
  ...PageQuery,
  ...SortQuery,
});

// The hosted API's listVerifications: customerId and verificationStatus filters, plus our sortOrder (§1.6).
const ListVerificationsQuery = Query({
  customerId: Type.Optional(Type.String({ maxLength: 100 })),
  verificationStatus: Type.Optional(StringEnum(verificationStatuses)),
  ...PageQuery,
  ...SortQuery,
});

export const kycRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Customer verification"];
  await app.register(beneficialOwnerRoutes, { deps });
  await app.register(kycLinkRoutes, { deps });

  app.post(
    "/documents",
    { schema: { tags, body: CreateDocumentBody, response: { 201: Document, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(await createDocument(deps, request.caller, request.body)),
  );

  app.get(
    "/documents",
    { schema: { tags, querystring: ListQuery, response: { 200: Page(Document), ...errorResponses } } },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listDocuments(deps, request.caller, filters, page);
    },
  );

  app.get(
    "/documents/:documentId",
    { schema: { tags, params: DocumentParams, response: { 200: Document, ...errorResponses } } },
    async (request) => getDocument(deps, request.caller, request.params.documentId),
  );

  app.put(
    "/documents/:documentId",
    {
      schema: {
        tags,
        params: DocumentParams,
        body: ReplaceDocumentBody,
        response: { 200: Document, ...errorResponses },
      },
    },
    async (request) => replaceDocument(deps, request.caller, request.params.documentId, request.body),
  );

  app.delete(
    "/documents/:documentId",
    { schema: { tags, params: DocumentParams, response: { 204: Type.Null(), ...errorResponses } } },
    async (request, reply) => {
      await deleteDocument(deps, request.caller, request.params.documentId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/verifications",
    // 200 as in the hosted API's createVerification: a submission, not a resource the caller names.
    { schema: { tags, body: CreateVerificationBody, response: { 200: Verification, ...errorResponses } } },
    async (request) => submitVerification(deps, request.caller, request.body),
  );

  app.get(
    "/verifications",
    {
      schema: {
        tags,
        querystring: ListVerificationsQuery,
        response: { 200: Page(Verification), ...errorResponses },
      },
    },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listVerifications(deps, request.caller, filters, page);
    },
  );

  app.get(
    "/verifications/:verificationId",
    { schema: { tags, params: VerificationParams, response: { 200: Verification, ...errorResponses } } },
    async (request) => getVerification(deps, request.caller, request.params.verificationId),
  );
};
