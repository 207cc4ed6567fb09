import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";
import { AccountQuery, RefreshSessionBody, SessionParams } from "./credential-schemas.js";
import { AuthSession, SignedRetryChallenge, WalletOperationProcessing } from "./schemas.js";
import { listSessions, refreshSession, revokeSessionCall } from "./session-actions.js";
import { sendSigned, signedHttp } from "./signed-calls.js";

/** Embedded wallet sessions (conventions §5.2). Signed-retry routes take no Idempotency-Key (§1.8). */
export const sessionRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Embedded wallet authentication"];

  app.get(
    "/auth/sessions",
    {
      schema: {
        tags,
        description: "Lists the active sessions of an embedded wallet, never key material (not paginated).",
        querystring: AccountQuery,
        response: { 200: Type.Object({ data: Type.Array(AuthSession) }), ...errorResponses },
      },
    },
    async (request) => listSessions(deps, request.caller, request.query.accountId),
  );

  app.post(
    "/auth/sessions/:id/refresh",
    {
      config: { idempotency: false },
      schema: {
        tags,
        description:
          "Refreshes a session: the retry signed by that session returns a new session keyed by clientPublicKey; the old one is revoked.",
        params: SessionParams,
        body: RefreshSessionBody,
        response: {
          201: AuthSession,
          202: SignedRetryChallenge,
          200: WalletOperationProcessing,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const result = await refreshSession(
        deps,
        request.caller,
        request.params.id,
        request.body,
        signedHttp(request),
      );
      return sendSigned(reply, result);
    },
  );

  app.delete(
    "/auth/sessions/:id",
    {
      config: { idempotency: false },
      schema: {
        tags,
        description: "Revokes a session; any active session of the account may sign, this one included.",
        params: SessionParams,
        response: {
          204: Type.Null(),
          202: SignedRetryChallenge,
          200: WalletOperationProcessing,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const result = await revokeSessionCall(deps, request.caller, request.params.id, signedHttp(request));
      return sendSigned(reply, result);
    },
  );
};
