import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";
import { createKey, getKey, listKeys, revokeKey } from "./delegated-keys.js";
import {
  CreateDelegatedKeyBody,
  DelegatedKey,
  DelegatedKeyParams,
  DelegatedKeySignedRequestChallenge,
  ListDelegatedKeysQuery,
} from "./delegated-keys-schemas.js";
import { sendSigned, signedHttp } from "./signed-calls.js";

/** Embedded wallet delegated keys (issue 21 §6). The signed-retry create takes no Idempotency-Key (§1.8). */
export const delegatedKeyRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Embedded wallet authentication"];

  app.get(
    "/auth/delegated-keys",
    {
      schema: {
        tags,
        description:
          "Lists the platform's delegated keys in every status, optionally of one embedded wallet (accountId or fundingSourceId; not paginated).",
        querystring: ListDelegatedKeysQuery,
        response: { 200: Type.Object({ data: Type.Array(DelegatedKey) }), ...errorResponses },
      },
    },
    async (request) => listKeys(deps, request.caller, request.query),
  );

  app.post(
    "/auth/delegated-keys",
    {
      config: { idempotency: false },
      schema: {
        tags,
        description:
          "Creates a delegated key for a card and the cardholder's embedded wallet: the first call answers 202 with payloadToSign; the identical request signed by an active session of the wallet creates the key.",
        body: CreateDelegatedKeyBody,
        response: {
          201: DelegatedKey,
          202: DelegatedKeySignedRequestChallenge,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const result = await createKey(deps, request.caller, request.body, signedHttp(request));
      return sendSigned(reply, result);
    },
  );

  app.get(
    "/auth/delegated-keys/:id",
    {
      schema: {
        tags,
        description: "Reads a delegated key, revoked ones included.",
        params: DelegatedKeyParams,
        response: { 200: DelegatedKey, ...errorResponses },
      },
    },
    async (request) => getKey(deps, request.caller, request.params.id),
  );

  app.delete(
    "/auth/delegated-keys/:id",
    {
      schema: {
        tags,
        description:
          "Revokes a delegated key with the platform credential alone: it becomes REVOKED and its private half is erased.",
        params: DelegatedKeyParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await revokeKey(deps, request.caller, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
