import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { ErrorBody, errorResponses } from "../core/http/schemas.js";
import { challengeCredential, verifyCredential } from "./credential-auth.js";
import { revokeCredential } from "./credential-revoke.js";
import {
  AccountQuery,
  AuthMethodParams,
  ChallengeBody,
  CreateCredentialBody,
  PasskeyAuthChallenge,
  VerifyCredentialBody,
} from "./credential-schemas.js";
import { addCredential, listCredentials } from "./credentials.js";
import { AuthMethod, AuthSession, SignedRetryChallenge, WalletOperationProcessing } from "./schemas.js";
import { sendSigned, signedHttp } from "./signed-calls.js";

/** Embedded wallet credentials (conventions §5.2). Signed-retry routes take no Idempotency-Key (§1.8). */
export const credentialRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Embedded wallet authentication"];
  const limited = { 423: ErrorBody, 429: ErrorBody };

  app.get(
    "/auth/credentials",
    {
      schema: {
        tags,
        description: "Lists the live credentials of an embedded wallet (not paginated).",
        querystring: AccountQuery,
        response: { 200: Type.Object({ data: Type.Array(AuthMethod) }), ...errorResponses },
      },
    },
    async (request) => listCredentials(deps, request.caller, request.query.accountId),
  );

  app.post(
    "/auth/credentials",
    {
      config: { idempotency: false },
      schema: {
        tags,
        description:
          "Adds a credential: the first call answers 202 with payloadToSign; the identical request signed by an active session of the account creates it.",
        body: CreateCredentialBody,
        response: {
          201: AuthMethod,
          202: SignedRetryChallenge,
          200: WalletOperationProcessing,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const result = await addCredential(deps, request.caller, request.body, signedHttp(request));
      return sendSigned(reply, result);
    },
  );

  app.post(
    "/auth/credentials/:id/challenge",
    {
      config: { optionalBody: true },
      schema: {
        tags,
        description:
          "Issues a challenge: OTP credentials get a new code and otpEncryptionTargetBundle; PASSKEY needs clientPublicKey.",
        params: AuthMethodParams,
        body: ChallengeBody,
        response: { 200: Type.Union([PasskeyAuthChallenge, AuthMethod]), ...errorResponses, ...limited },
      },
    },
    async (request) => challengeCredential(deps, request.caller, request.params.id, request.body),
  );

  app.post(
    "/auth/credentials/:id/verify",
    {
      config: { idempotency: false },
      schema: {
        tags,
        description:
          "Verifies a credential: OTP answers 202 binding the client key, then the retry signed by that key returns the session; OAUTH and PASSKEY return it at once.",
        params: AuthMethodParams,
        body: VerifyCredentialBody,
        response: {
          200: Type.Union([AuthSession, WalletOperationProcessing]),
          202: SignedRetryChallenge,
          ...errorResponses,
          ...limited,
        },
      },
    },
    async (request, reply) => {
      const result = await verifyCredential(
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
    "/auth/credentials/:id",
    {
      config: { idempotency: false },
      schema: {
        tags,
        description:
          "Revokes a credential and its sessions; signed by a session another credential of the account issued.",
        params: AuthMethodParams,
        response: {
          204: Type.Null(),
          202: SignedRetryChallenge,
          200: WalletOperationProcessing,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const result = await revokeCredential(deps, request.caller, request.params.id, signedHttp(request));
      return sendSigned(reply, result);
    },
  );
};
