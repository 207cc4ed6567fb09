import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";
import { lookupExternalAccount } from "./receiver-lookup.js";
import { ReceiverExternalAccountLookup, ReceiverLookupParams, ReceiverLookupQuery } from "./schemas.js";

/** `GET /receiver/external-account/{accountId}`: the hosted API's lookupExternalAccount. */
export const receiverLookupRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    "/receiver/external-account/:accountId",
    {
      schema: {
        tags: ["External accounts"],
        params: ReceiverLookupParams,
        querystring: ReceiverLookupQuery,
        response: { 200: ReceiverExternalAccountLookup, ...errorResponses },
      },
    },
    async (request) => lookupExternalAccount(deps, request.caller, request.params.accountId, request.query),
  );
};
