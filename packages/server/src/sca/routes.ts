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
import { confirmEnrollment, deleteFactor, listFactors, startEnrollment } from "./passkeys.js";
import { authorizeQuote, resendQuoteCode } from "./payments.js";
import { resetRoutes } from "./reset-routes.js";
import {
  BeneficiaryTrustConfirm,
  BeneficiaryTrustConfirmRequest,
  BeneficiaryTrustStart,
  ContactVerificationConfirmBody,
  CredentialParams,
  CustomerParams,
  CustomerQuery,
  EmptyBody,
  QuoteParams,
  RecordSecurityEventRequest,
  RecordSecurityEventResponse,
  ScaAuthorization,
  ScaFactorConfirmRequest,
  ScaFactorConfirmResponse,
  ScaFactorEnrollRequest,
  ScaFactorEnrollStart,
  ScaFactorList,
  ScaLoginComplete,
  ScaLoginCompleteRequest,
  ScaLoginStart,
  ScaLoginStartRequest,
} from "./schemas.js";
import { recordSecurityEvent } from "./security-events.js";
import { completeLogin, startLogin } from "./sessions.js";

/** Strong customer authentication, contact verification and trusted beneficiaries (docs/decisions.md). */
export const scaRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; gates: readonly ExecutionGate[] }> = async (
  app,
  { deps, gates },
) => {
  const tags = ["Strong customer authentication"];
  const errors = { ...errorResponses, 423: ErrorBody };

  const sca = { tags, querystring: CustomerQuery };
  await app.register(resetRoutes, { deps });
  app.get(
    "/sca/factors",
    {
      schema: {
        ...sca,
        description: "The customer's SCA factors.",
        response: { 200: ScaFactorList, ...errors },
      },
    },
    async (request) => listFactors(deps, request.caller, request.query.customerId),
  );
  app.post(
    "/sca/factors",
    {
      schema: {
        ...sca,
        description:
          "Starts enrolling a TOTP factor (a new secret) or a passkey (WebAuthn creation options).",
        body: ScaFactorEnrollRequest,
        response: { 200: ScaFactorEnrollStart, ...errors },
      },
    },
    async (request) => startEnrollment(deps, request.caller, request.query.customerId, request.body),
  );
  app.post(
    "/sca/factors/confirm",
    {
      schema: {
        ...sca,
        description:
          "Finishes an enrolment: TOTP with the secret and its current code (answers recovery codes), PASSKEY with the WebAuthn registration response.",
        body: ScaFactorConfirmRequest,
        response: { 200: ScaFactorConfirmResponse, ...errors },
      },
    },
    async (request) => confirmEnrollment(deps, request.caller, request.query.customerId, request.body),
  );
  app.delete(
    "/sca/factors/:credentialId",
    {
      schema: {
        ...sca,
        description:
          "Deletes the customer's passkey or TOTP factor (its credentialId from GET /sca/factors).",
        params: CredentialParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteFactor(deps, request.caller, request.query.customerId, request.params.credentialId);
      return reply.code(204).send(null);
    },
  );
  app.post(
    "/sca/login/start",
    {
      schema: {
        ...sca,
        description: "Starts an SCA login: sends a code (SMS_OTP) or returns WebAuthn options (PASSKEY).",
        body: ScaLoginStartRequest,
        response: { 200: ScaLoginStart, ...errors },
      },
    },
    async (request) => startLogin(deps, request.caller, request.query.customerId, request.body),
  );
  app.post(
    "/sca/login/complete",
    {
      schema: {
        ...sca,
        description: "Answers the login challenge: a 180-day SCA session.",
        body: ScaLoginCompleteRequest,
        response: { 200: ScaLoginComplete, ...errors },
      },
    },
    async (request) => completeLogin(deps, request.caller, request.query.customerId, request.body),
  );
  app.post(
    "/sca/record-event",
    {
      schema: {
        ...sca,
        description: "Records a security event of the platform's own login.",
        body: RecordSecurityEventRequest,
        response: { 200: RecordSecurityEventResponse, ...errors },
      },
    },
    async (request) => recordSecurityEvent(deps, request.caller, request.query.customerId, request.body),
  );
  const authorize = { tags: ["Quotes"], params: QuoteParams };
  app.post(
    "/quotes/:quoteId/authorize",
    {
      config: { permission: "TRANSACT" },
      schema: {
        ...authorize,
        description: "Answers a PENDING_AUTHORIZATION quote's `scaChallenge` and executes the quote.",
        body: ScaAuthorization,
        response: { 200: Quote, ...errors, 501: ErrorBody },
      },
    },
    async (request) => authorizeQuote(deps, request.caller, request.params.quoteId, request.body, gates),
  );
  app.post(
    "/quotes/:quoteId/authorize/resend",
    {
      config: { permission: "TRANSACT", optionalBody: true },
      schema: {
        ...authorize,
        description: "Sends a new SMS_OTP code for the quote's `scaChallenge`.",
        body: EmptyBody,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await resendQuoteCode(deps, request.caller, request.params.quoteId);
      return reply.code(204).send(null);
    },
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
