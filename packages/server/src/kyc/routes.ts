import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { Page, PageQuery, Query, SortQuery, splitPageQuery } from "../core/http/pagination.js";
import { errorResponses } from "../core/http/schemas.js";
import { createDocument, getDocument, listDocuments, replaceDocument } from "./documents.js";
import {
  CreateDocumentBody,
  CreateVerificationBody,
  Document,
  DocumentParams,
  ReplaceDocumentBody,
  Verification,
  VerificationParams,
} from "./schemas.js";
import { getVerification, listVerifications, submitVerification } from "./verifications.js";

// A filter, not a lookup: an unknown or foreign customerId lists nothing, as on /customers/internal-accounts.
const ListQuery = Query({
  customerId: Type.Optional(Type.String({ maxLength: 100 })),
  ...PageQuery,
  ...SortQuery,
});

export const kycRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Customer verification"];

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

  app.post(
    "/verifications",
    { schema: { tags, body: CreateVerificationBody, response: { 201: Verification, ...errorResponses } } },
    async (request, reply) =>
      reply.code(201).send(await submitVerification(deps, request.caller, request.body)),
  );

  app.get(
    "/verifications",
    { schema: { tags, querystring: ListQuery, response: { 200: Page(Verification), ...errorResponses } } },
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
