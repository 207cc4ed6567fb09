import type { FastifyError, FastifyInstance } from "fastify";
import { ApiError, type FieldError, invalidInput } from "../errors/api-error.js";
import { lingerWhenClosed } from "./linger.js";
import { fieldErrors } from "./validation.js";

/** Translates anything thrown while serving a request into a catalogue error. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as Partial<FastifyError> & { validationContext?: string };
  if (fastifyError.validation) {
    const part = fastifyError.validationContext ?? "body";
    const errors = fieldErrors(fastifyError.validation as never, part);
    return invalidInput(errors);
  }
  if (error instanceof SyntaxError || fastifyError.code === "FST_ERR_CTP_INVALID_JSON_BODY") {
    return new ApiError("INVALID_REQUEST_FORMAT", { reason: "The request body is not valid JSON." });
  }
  if (typeof fastifyError.code === "string" && fastifyError.code.startsWith("FST_ERR_CTP_")) {
    const reasons: Record<string, string> = {
      FST_ERR_CTP_INVALID_MEDIA_TYPE: "The request body must be sent as application/json.",
      FST_ERR_CTP_EMPTY_JSON_BODY: "The request body is empty; send a JSON object.",
      FST_ERR_CTP_BODY_TOO_LARGE: "The request body is too large.",
      FST_ERR_CTP_INVALID_CONTENT_LENGTH: "The Content-Length header does not match the body.",
    };
    return new ApiError("INVALID_REQUEST_FORMAT", {
      reason: reasons[fastifyError.code] ?? "The request body could not be read.",
    });
  }
  if (fastifyError.statusCode === 400 && typeof fastifyError.code === "string") {
    return new ApiError("INVALID_REQUEST_FORMAT", { reason: "The request could not be parsed." });
  }
  return new ApiError("INTERNAL_ERROR", { cause: error });
}

/**
 * A route that adds its own rules to a body the schema refused (`attachValidation: true`) reads the
 * schema's FieldErrors here, so that one `400 INVALID_INPUT` names every invalid field.
 */
export function schemaFieldErrors(validationError: Error | undefined): FieldError[] | undefined {
  const failure = validationError as
    | (Error & { validation?: unknown; validationContext?: string })
    | undefined;
  if (!failure?.validation) return undefined;
  return fieldErrors(failure.validation as never, failure.validationContext ?? "body");
}

/** The one place error bodies are written: `{code, reason, details?}`, 5xx logged with their cause. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500 && apiError.code !== "SERVICE_UNAVAILABLE") {
      request.log.error({ err: error, code: apiError.code }, "request failed");
    }
    // Answered before the body was read (too large, or refused during the drain): the client may still
    // be sending it when the connection closes.
    if (!request.raw.complete) lingerWhenClosed(request.raw.socket);
    return reply.code(apiError.status).headers(apiError.headers).send(apiError.toBody());
  });
}
