import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { Performer, SignedCall, SignedResponse } from "./signed-retry.js";

/** What the signed-retry mechanism reads from an HTTP request (conventions §5.3). */
export interface SignedHttp {
  method: string;
  /** The path as received, without the query string. */
  path: string;
  signatureHeader: string | undefined;
  requestIdHeader: string | undefined;
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(",") : value);

export function signedHttp(request: FastifyRequest): SignedHttp {
  return {
    method: request.method,
    path: request.url.split("?")[0] ?? request.url,
    signatureHeader: single(request.headers["service-wallet-signature"]),
    requestIdHeader: single(request.headers["request-id"]),
  };
}

/** The first call of a signed retry carries neither header (an empty header counts as absent). */
export function isFirstCall(http: SignedHttp): boolean {
  return !http.signatureHeader && !http.requestIdHeader;
}

/** A SignedCall for this caller and request; the rest is the operation's. */
export function signedCall(
  caller: Caller,
  http: SignedHttp,
  operation: Omit<SignedCall, "platformId" | "method" | "path" | "signatureHeader" | "requestIdHeader">,
): SignedCall {
  return {
    platformId: caller.platformId,
    method: http.method,
    path: http.path,
    signatureHeader: http.signatureHeader,
    requestIdHeader: http.requestIdHeader,
    ...operation,
  };
}

/**
 * A performer whose own refusals (a 4xx found when it runs: the credential was revoked meanwhile, the
 * limit was reached by a concurrent add) settle the operation with that error, so a re-sent signed
 * request and the reconciler see the same terminal answer (interface "Signed-retry operation": processing
 * → settled, "terminal success, or an error"). Performers check before they write, so nothing is undone.
 */
export function settlingErrors(performer: Performer): Performer {
  return async (tx, deps, request, signer, now) => {
    try {
      return await performer(tx, deps, request, signer, now);
    } catch (error) {
      if (error instanceof ApiError && error.status < 500)
        return { status: error.status, body: error.toBody() };
      throw error;
    }
  };
}

/** Sends what a signed-retry operation answered: `202` challenge, terminal result, or PROCESSING. */
export function sendSigned(reply: FastifyReply, result: SignedResponse): FastifyReply {
  return reply.code(result.status).send(result.body);
}
