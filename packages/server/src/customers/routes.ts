import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { Page, PageQuery, Query, SortQuery, splitPageQuery } from "../core/http/pagination.js";
import { errorResponses, StringEnum } from "../core/http/schemas.js";
import { TimeRangeQuery } from "../core/http/time-range.js";
import { SignedRetryChallenge } from "../wallet-auth/schemas.js";
import { signedHttp } from "../wallet-auth/signed-calls.js";
import { listAgreements } from "./agreements.js";
import { createCustomer, deleteCustomer, getCustomer, listCustomers } from "./customers.js";
import {
  Agreement,
  CreateCustomerBody,
  Customer,
  CustomerParams,
  kycStatuses,
  UpdateCustomerBody,
} from "./schemas.js";
import { updateCustomer } from "./update-customer.js";

export const customerRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Customers"];

  app.post(
    "/customers",
    { schema: { tags, body: CreateCustomerBody, response: { 201: Customer, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(await createCustomer(deps, request.caller, request.body)),
  );

  app.get(
    "/customers",
    {
      schema: {
        tags,
        querystring: Query({
          platformCustomerId: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
          customerType: Type.Optional(StringEnum(["INDIVIDUAL", "BUSINESS"])),
          kycStatus: Type.Optional(StringEnum(kycStatuses)),
          region: Type.Optional(Type.String({ format: "iso3166-1-alpha-2" })),
          currency: Type.Optional(Type.String({ pattern: "^[A-Z]{3,5}$" })),
          umaAddress: Type.Optional(
            Type.String({
              maxLength: 255,
              pattern: "^\\$[A-Za-z0-9._-]{1,64}@[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}$",
            }),
          ),
          ...TimeRangeQuery,
          isIncludingDeleted: Type.Optional(Type.Boolean({ default: false })),
          ...PageQuery,
          ...SortQuery,
        }),
        response: { 200: Page(Customer), ...errorResponses },
      },
    },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listCustomers(deps, request.caller, filters, page);
    },
  );

  app.get(
    "/customers/agreements",
    { schema: { tags, response: { 200: Type.Object({ data: Type.Array(Agreement) }), ...errorResponses } } },
    async () => ({ data: listAgreements() }),
  );

  app.get(
    "/customers/end-user-terms",
    {
      schema: {
        tags,
        deprecated: true,
        description: "Deprecated: use GET /customers/agreements.",
        response: { 200: Type.Object({ version: Type.String(), url: Type.String() }), ...errorResponses },
      },
    },
    async () => {
      const terms = listAgreements().find((a) => a.type === "SERVICE_END_USER_TERMS");
      return { version: terms?.version ?? "", url: terms?.url ?? "" };
    },
  );

  app.get(
    "/customers/:customerId",
    { schema: { tags, params: CustomerParams, response: { 200: Customer, ...errorResponses } } },
    async (request) => getCustomer(deps, request.caller, request.params.customerId),
  );

  app.patch(
    "/customers/:customerId",
    {
      schema: {
        tags,
        params: CustomerParams,
        body: UpdateCustomerBody,
        response: { 200: Customer, 202: SignedRetryChallenge, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { customerId } = request.params;
      const result = await updateCustomer(
        deps,
        request.caller,
        customerId,
        request.body,
        signedHttp(request),
      );
      // The status picks the response schema: 200 Customer, or the 202 challenge of a signed retry.
      return reply.code(result.status).send(result.body as never);
    },
  );

  app.delete(
    "/customers/:customerId",
    { schema: { tags, params: CustomerParams, response: { 200: Customer, ...errorResponses } } },
    async (request) => deleteCustomer(deps, request.caller, request.params.customerId),
  );
};
