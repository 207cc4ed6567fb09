import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { ErrorBody, errorResponses } from "../core/http/schemas.js";
import { ExternalAccount, ExternalAccountParams } from "../external-accounts/schemas.js";
import type { ExecutionGate } from "../quotes/execution-gate.js";
import { Quote } from "../quotes/schemas.js";
import { confirmUntrust, startUntrust, trustBeneficiary } from "./beneficiaries.js";
import {
  completeContactVerification,
  getContactVerification,
  startContactVerification,
} from "./contact-verification.js";
import { deletePasskey, enrollPasskey } from "./passkeys.js";
import { completePayment } from "./payments.js";
import {
  CompleteBody,
  ConfirmUntrustBody,
  ContactVerification,
  ContactVerificationBody,
  ContactVerificationCompleteBody,
  CustomerParams,
  EmptyBody,
  EnrollPasskeyBody,
  LoginBody,
  PasskeyParams,
  ScaChallenge,
  ScaPasskey,
  ScaSession,
  SessionParams,
} from "./schemas.js";
import { completeLogin, revokeSession, startLogin } from "./sessions.js";

/** Strong customer authentication, contact verification and trusted beneficiaries (docs/decisions/sca.md). */
export const scaRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; gates: readonly ExecutionGate[] }> = async (
  app,
  { deps, gates },
) => {
  const tags = ["Strong customer authentication"];
  const errors = { ...errorResponses, 423: ErrorBody };

  app.post(
    "/sca/login",
    { schema: { tags, body: LoginBody, response: { 201: ScaChallenge, ...errors } } },
    async (request, reply) => reply.code(201).send(await startLogin(deps, request.caller, request.body)),
  );
  app.post(
    "/sca/login/complete",
    { schema: { tags, body: CompleteBody, response: { 200: ScaSession, ...errors } } },
    async (request) => completeLogin(deps, request.caller, request.body),
  );
  app.delete(
    "/sca/sessions/:sessionId",
    { schema: { tags, params: SessionParams, response: { 204: Type.Null(), ...errors } } },
    async (request, reply) => {
      await revokeSession(deps, request.caller, request.params.sessionId);
      return reply.code(204).send(null);
    },
  );
  app.post(
    "/sca/passkeys",
    { schema: { tags, body: EnrollPasskeyBody, response: { 201: ScaPasskey, ...errors } } },
    async (request, reply) => reply.code(201).send(await enrollPasskey(deps, request.caller, request.body)),
  );
  app.delete(
    "/sca/passkeys/:passkeyId",
    { schema: { tags, params: PasskeyParams, response: { 204: Type.Null(), ...errors } } },
    async (request, reply) => {
      await deletePasskey(deps, request.caller, request.params.passkeyId);
      return reply.code(204).send(null);
    },
  );
  app.post(
    "/sca/payments/complete",
    {
      config: { permission: "TRANSACT" },
      schema: {
        tags,
        description: "Answers a quote's `scaChallenge` and executes the quote held in PENDING_AUTHORIZATION.",
        body: CompleteBody,
        response: { 200: Quote, ...errors, 501: ErrorBody },
      },
    },
    async (request) => completePayment(deps, request.caller, request.body, gates),
  );

  const contact = ["Contact verification"];
  app.post(
    "/contact-verification",
    { schema: { tags: contact, body: ContactVerificationBody, response: { 201: ScaChallenge, ...errors } } },
    async (request, reply) =>
      reply.code(201).send(await startContactVerification(deps, request.caller, request.body)),
  );
  app.post(
    "/contact-verification/complete",
    {
      schema: {
        tags: contact,
        body: ContactVerificationCompleteBody,
        response: { 200: ContactVerification, ...errors },
      },
    },
    async (request) => completeContactVerification(deps, request.caller, request.body),
  );
  app.get(
    "/contact-verification/:customerId",
    { schema: { tags: contact, params: CustomerParams, response: { 200: ContactVerification, ...errors } } },
    async (request) => getContactVerification(deps, request.caller, request.params.customerId),
  );

  const beneficiaries = { tags: ["External accounts"], params: ExternalAccountParams };
  app.post(
    "/customers/external-accounts/:externalAccountId/trust",
    {
      config: { optionalBody: true },
      schema: { ...beneficiaries, body: EmptyBody, response: { 200: ExternalAccount, ...errors } },
    },
    async (request) => trustBeneficiary(deps, request.caller, request.params.externalAccountId),
  );
  app.post(
    "/customers/external-accounts/:externalAccountId/untrust",
    {
      config: { optionalBody: true },
      schema: { ...beneficiaries, body: EmptyBody, response: { 201: ScaChallenge, ...errors } },
    },
    async (request, reply) =>
      reply.code(201).send(await startUntrust(deps, request.caller, request.params.externalAccountId)),
  );
  app.post(
    "/customers/external-accounts/:externalAccountId/confirm",
    {
      schema: {
        ...beneficiaries,
        body: ConfirmUntrustBody,
        response: { 200: ExternalAccount, ...errors },
      },
    },
    async (request) =>
      confirmUntrust(deps, request.caller, request.params.externalAccountId, request.body.code),
  );
};
