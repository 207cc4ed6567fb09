import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { ErrorBody, errorResponses } from "../core/http/schemas.js";
import { Customer } from "../customers/schemas.js";
import { ExternalAccountParams } from "../external-accounts/schemas.js";
import type { ExecutionGate } from "../quotes/execution-gate.js";
import { Quote } from "../quotes/schemas.js";
import { confirmTrustChange, startTrust, startUntrust, type TrustChange } from "./beneficiaries.js";
import { confirmContactVerification, sendContactVerification } from "./contact-verification.js";
import { deletePasskey, enrollPasskey } from "./passkeys.js";
import { completePayment } from "./payments.js";
import {
  BeneficiaryTrustConfirm,
  BeneficiaryTrustConfirmRequest,
  BeneficiaryTrustStart,
  CompleteBody,
  ContactVerificationConfirmBody,
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

/** Strong customer authentication, contact verification and trusted beneficiaries (docs/decisions.md). */
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

  // The hosted API's contact verification (operations send/confirmCustomerEmailVerification and
  // send/confirmCustomerPhoneVerification): sends take no body and answer 204.
  const contact = { tags: ["Contact verification"], params: CustomerParams };
  const send = { ...contact, body: EmptyBody, response: { 204: Type.Null(), ...errorResponses } };
  const confirm = {
    ...contact,
    body: ContactVerificationConfirmBody,
    response: { 200: Customer, ...errors },
  };
  app.post(
    "/customers/:customerId/verify-email",
    {
      config: { optionalBody: true },
      schema: { ...send, description: "Sends a code to the customer's email." },
    },
    async (request, reply) => {
      await sendContactVerification(deps, request.caller, request.params.customerId, "EMAIL");
      return reply.code(204).send(null);
    },
  );
  app.post(
    "/customers/:customerId/verify-email/confirm",
    { schema: { ...confirm, description: "Proves the email with the code sent to it." } },
    async (request) =>
      confirmContactVerification(deps, request.caller, request.params.customerId, "EMAIL", request.body.code),
  );
  app.post(
    "/customers/:customerId/verify-phone",
    {
      config: { optionalBody: true },
      schema: { ...send, description: "Sends a code by SMS to the customer's phoneNumber." },
    },
    async (request, reply) => {
      await sendContactVerification(deps, request.caller, request.params.customerId, "PHONE");
      return reply.code(204).send(null);
    },
  );
  app.post(
    "/customers/:customerId/verify-phone/confirm",
    { schema: { ...confirm, description: "Proves the phoneNumber with the code sent to it." } },
    async (request) =>
      confirmContactVerification(deps, request.caller, request.params.customerId, "PHONE", request.body.code),
  );

  // The hosted API's beneficiary trust (start/confirmBeneficiaryTrust, start/confirmBeneficiaryUntrust):
  // each change is a challenge (200 BeneficiaryTrustStart) and its answer (200 BeneficiaryTrustConfirm).
  const beneficiaries = { tags: ["External accounts"], params: ExternalAccountParams };
  const start = { ...beneficiaries, body: EmptyBody, response: { 200: BeneficiaryTrustStart, ...errors } };
  const confirmChange = {
    ...beneficiaries,
    body: BeneficiaryTrustConfirmRequest,
    response: { 200: BeneficiaryTrustConfirm, ...errors },
  };
  const trustPath = "/customers/external-accounts/:externalAccountId";
  app.post(
    `${trustPath}/trust`,
    { config: { optionalBody: true }, schema: { ...start, description: "Starts trusting the beneficiary." } },
    async (request) => startTrust(deps, request.caller, request.params.externalAccountId),
  );
  app.post(
    `${trustPath}/untrust`,
    {
      config: { optionalBody: true },
      schema: { ...start, description: "Starts untrusting the beneficiary." },
    },
    async (request) => startUntrust(deps, request.caller, request.params.externalAccountId),
  );
  // `/confirm` is the interface's name for the untrust confirmation (spec, "Other endpoints").
  const confirms: [string, TrustChange, string][] = [
    ["/trust/confirm", "TRUST", "Answers the /trust challenge: the account is trusted."],
    ["/untrust/confirm", "UNTRUST", "Answers the /untrust challenge: the account is no longer trusted."],
    ["/confirm", "UNTRUST", "The same as /untrust/confirm."],
  ];
  for (const [step, change, description] of confirms) {
    app.post(`${trustPath}${step}`, { schema: { ...confirmChange, description } }, async (request) =>
      confirmTrustChange(deps, request.caller, request.params.externalAccountId, request.body, change),
    );
  }
};
