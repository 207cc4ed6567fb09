import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Deps } from "../../core/deps.js";
import { ApiError, type FieldError, invalidInput } from "../../core/errors/api-error.js";
import { toApiError } from "../../core/http/error-handler.js";
import { ErrorBody } from "../../core/http/schemas.js";
import { type GoneReason, type SubmitResult, submitLiveness, viewLiveness } from "./liveness-flow.js";
import { addLivenessFormParsers, FORM_BODY_LIMIT, type LivenessForm } from "./liveness-forms.js";
import {
  livenessPageHeaders,
  renderGonePage,
  renderLivenessPage,
  renderProblemPage,
  renderThankYouPage,
} from "./liveness-page.js";
import {
  LIVENESS_PAGE_PATH,
  LIVENESS_SESSIONS_PATH,
  LivenessParams,
  LivenessSession,
  LivenessSessionBody,
  SESSION_BODY_LIMIT,
} from "./liveness-schemas.js";
import { checkSubmission, decodeBase64 } from "./liveness-submission.js";

const UNAVAILABLE =
  "No liveness provider is configured for this platform: the sandbox provider serves sandbox platforms only.";

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(livenessPageHeaders).send(html);
}

/** The hosted page's answer to a state or a submission. */
function pageFor(reply: FastifyReply, result: SubmitResult): FastifyReply {
  if ("gone" in result) return sendPage(reply, 410, renderGonePage(result.gone));
  if ("unavailable" in result)
    return sendPage(reply, 501, renderProblemPage("Verification unavailable", UNAVAILABLE));
  if ("invalid" in result) return sendPage(reply, 400, renderLivenessPage(result.view, result.invalid));
  if ("submitted" in result) return sendPage(reply, 200, renderThankYouPage());
  return sendPage(reply, 200, renderLivenessPage(result.open));
}

const isForm = (request: FastifyRequest) =>
  /^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(request.headers["content-type"] ?? "");

/**
 * The pages a person's browser opens (the LIVENESS `verificationLink`): public, since the single-use
 * token is the credential; HTML for every answer, errors included; the only routes that read form posts.
 */
const hostedPage: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  addLivenessFormParsers(app);
  app.setErrorHandler((error, _request, reply) => {
    const code = (error as { code?: unknown }).code;
    if (code === "FST_ERR_CTP_BODY_TOO_LARGE")
      return sendPage(
        reply,
        413,
        renderProblemPage("Photo too large", "Choose a photo of at most 5 MB and try again."),
      );
    const apiError = toApiError(error);
    // 5xx go on to the core handler, which logs the cause and answers without details.
    if (apiError.status >= 500) throw error;
    return sendPage(reply, apiError.status, renderProblemPage("The page could not be used", apiError.reason));
  });

  app.get(
    LIVENESS_PAGE_PATH,
    { config: { public: true }, schema: { params: LivenessParams } },
    async (request, reply) => pageFor(reply, await viewLiveness(deps, request.params.token)),
  );

  app.post(
    LIVENESS_PAGE_PATH,
    {
      config: { public: true, idempotency: false },
      bodyLimit: FORM_BODY_LIMIT,
      schema: { params: LivenessParams },
    },
    async (request, reply) => {
      if (request.body !== undefined && !isForm(request))
        return sendPage(
          reply,
          415,
          renderProblemPage("Unsupported form", "Submit the form from the verification page."),
        );
      const form = (request.body ?? {}) as LivenessForm;
      const input = {
        channel: "HOSTED_PAGE" as const,
        consent: ["yes", "on", "true"].includes(form.consent ?? ""),
        image: form.image,
        outcome: form.outcome,
      };
      return pageFor(reply, await submitLiveness(deps, request.params.token, input));
    },
  );
};

/**
 * The hosted LIVENESS flow of the sandbox provider (conventions §4.2): the page behind
 * `verificationLink`, and the provider-SDK path for the challenge's `token`, with the same outcome.
 */
export const livenessRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  await app.register(hostedPage, { deps });

  app.post(
    LIVENESS_SESSIONS_PATH,
    {
      // The token is the credential; there is no platform to scope an Idempotency-Key to, and a repeat
      // is refused anyway (the capture is single use).
      config: { public: true, idempotency: false },
      bodyLimit: SESSION_BODY_LIMIT,
      schema: {
        tags: ["External accounts"],
        description:
          "Provider-SDK path of a LIVENESS challenge: submits one capture with the challenge's token; the result arrives as EXTERNAL_ACCOUNT.STATUS_UPDATED.",
        params: LivenessParams,
        body: LivenessSessionBody,
        response: { 202: LivenessSession, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 501: ErrorBody },
      },
    },
    async (request, reply) => {
      const { consent, image, outcome } = request.body;
      const bytes = decodeBase64(image);
      const input = { channel: "SDK" as const, consent, image: bytes ?? new Uint8Array(), outcome };
      // Check order (conventions §1.7): the body's 400 before the token's 404 and 409.
      const checked = checkSubmission(input);
      if ("problems" in checked) throw invalidCapture(checked.problems, bytes === undefined);
      const result = await submitLiveness(deps, request.params.token, input);
      if ("submitted" in result)
        return reply.code(202).send({ status: "SUBMITTED", submittedAt: result.submitted.toISOString() });
      throw sessionError(result);
    },
  );
};

const goneReasons: Record<Exclude<GoneReason, "UNKNOWN">, string> = {
  SUBMITTED: "a capture was already submitted for it",
  FINISHED: "it is already complete",
  ABANDONED: "a newer challenge replaced it; use the latest token",
  EXPIRED: "it expired; start a new challenge",
};

function invalidCapture(problems: FieldError[], undecodable: boolean): ApiError {
  return invalidInput(
    problems.map((e) => (e.field === "image" && undecodable ? { ...e, message: "is not base64" } : e)),
  );
}

/** The provider-SDK path's error for a link that cannot be used or a capture that is incomplete. */
function sessionError(result: Exclude<SubmitResult, { submitted: Date }>): ApiError {
  if ("unavailable" in result) return new ApiError("NOT_IMPLEMENTED", { reason: UNAVAILABLE });
  if ("invalid" in result) return invalidCapture(result.invalid, false);
  if ("gone" in result && result.gone !== "UNKNOWN")
    return new ApiError("CONFLICT", {
      reason: `The liveness challenge takes no capture: ${goneReasons[result.gone]}.`,
    });
  return new ApiError("NOT_FOUND", { reason: "No liveness challenge has this token." });
}
