import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import type { Deps } from "../../core/deps.js";
import { ErrorBody, errorResponses } from "../../core/http/schemas.js";
import { API_VERSION } from "../../core/http/version.js";
import { ExternalAccount, ExternalAccountParams } from "../schemas.js";
import { startChallenge } from "./challenges.js";
import { OwnershipChallenge, OwnershipChallengeRequest, VerifyOwnershipBody } from "./schemas.js";
import { verifyWalletSignature } from "./verify.js";

/** Where the hosted pages of this service live, as the caller reached it (the liveness link's base). */
export function ownershipOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/${API_VERSION}/ownership`;
}

/** Ownership challenges of self-custody wallets (conventions §4.2, §4.3), for customer and platform accounts. */
export const ownershipRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["External accounts"];
  for (const owner of ["customer", "platform"] as const) {
    const base = owner === "customer" ? "/customers/external-accounts" : "/platform/external-accounts";
    app.post(
      `${base}/:externalAccountId/challenge`,
      {
        schema: {
          tags,
          description:
            "Starts an ownership verification challenge for a FIRST_PARTY self-custody wallet; a new one abandons the one in flight.",
          params: ExternalAccountParams,
          body: OwnershipChallengeRequest,
          response: { 201: OwnershipChallenge, ...errorResponses, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        const input = {
          rawId: request.params.externalAccountId,
          owner,
          method: request.body.method,
          origin: ownershipOrigin(request),
        };
        return reply.code(201).send(await startChallenge(deps, request.caller, input));
      },
    );
    app.post(
      `${base}/:externalAccountId/verify`,
      {
        schema: {
          tags,
          description:
            "Submits the wallet's signature of the open WALLET_SIGNATURE challenge's messageToSign; success makes the account ACTIVE.",
          params: ExternalAccountParams,
          body: VerifyOwnershipBody,
          response: { 200: ExternalAccount, ...errorResponses },
        },
      },
      async (request) =>
        verifyWalletSignature(deps, request.caller, {
          rawId: request.params.externalAccountId,
          owner,
          body: request.body,
        }),
    );
  }
};
