import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { ErrorBody, errorResponses } from "../core/http/schemas.js";
import { API_VERSION } from "../core/http/version.js";
import { completeReset, getReset, startReset, verifyResetIdentity } from "./reset.js";
import {
  CustomerQuery,
  ResetParams,
  ResetTokenParams,
  TwoFactorResetCompleteRequest,
  TwoFactorResetStart,
  TwoFactorResetStartRequest,
  TwoFactorResetStatus,
} from "./schemas.js";

/** Where the sandbox identity page of a reset lives (its `verificationLink`, plus the token). */
export const RESET_PAGE_PATH = "/sca-reset";
const resetOrigin = (request: FastifyRequest) =>
  `${request.protocol}://${request.host}/${API_VERSION}${RESET_PAGE_PATH}`;

const pageHeaders = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; form-action 'self'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
};
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
const FORM = `<p>Sandbox identity check for a two-factor reset: no camera, no provider. Choose the outcome.</p>
<form method="post"><button name="outcome" value="PASS">Identity confirmed</button>
<button name="outcome" value="FAIL">Identity not confirmed</button></form>`;
const GONE = page("Link no longer valid", "<p>This reset link was used, replaced or expired.</p>");

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).headers(pageHeaders).send(html);
}

/**
 * The sandbox's hosted identity page of a two-factor reset: public, since the unguessable single-use token
 * is the credential. A form post (or an empty POST) with `outcome` PASS (default) or FAIL decides it.
 */
const resetPage: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  const config = { public: true, idempotency: false } as const;
  app.get(
    `${RESET_PAGE_PATH}/:token`,
    { config, schema: { params: ResetTokenParams } },
    async (_request, reply) => sendPage(reply, 200, page("Confirm your identity", FORM)),
  );
  app.post(
    `${RESET_PAGE_PATH}/:token`,
    { config, schema: { params: ResetTokenParams } },
    async (request, reply) => {
      const outcome = (request.body as { outcome?: unknown } | undefined)?.outcome;
      const pass = outcome !== "FAIL";
      const done = await verifyResetIdentity(deps, request.params.token, pass);
      if (!done) return sendPage(reply, 410, GONE);
      const said = pass ? "Your identity is confirmed." : "Your identity was not confirmed.";
      return sendPage(reply, 200, page("Thank you", `<p>${said} You can close this page.</p>`));
    },
  );
};

/** Two-factor reset (hosted `startTwoFactorReset`, `getTwoFactorResetStatus`, `completeTwoFactorReset`). */
export const resetRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Strong customer authentication"];
  const errors = { ...errorResponses, 423: ErrorBody, 429: ErrorBody };
  const sca = { tags, querystring: CustomerQuery };
  await app.register(resetPage, { deps });

  app.post(
    "/sca/factors/reset",
    {
      schema: {
        ...sca,
        description:
          "Starts resetting a lost factor: the person proves their identity on verificationLink (sandbox page), then /complete removes the factor.",
        body: TwoFactorResetStartRequest,
        response: { 201: TwoFactorResetStart, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await startReset(
            deps,
            request.caller,
            request.query.customerId,
            request.body,
            resetOrigin(request),
          ),
        ),
  );
  app.get(
    "/sca/factors/reset/:resetId",
    {
      schema: {
        ...sca,
        description: "The state of a two-factor reset.",
        params: ResetParams,
        response: { 200: TwoFactorResetStatus, ...errors },
      },
    },
    async (request) => getReset(deps, request.caller, request.query.customerId, request.params.resetId),
  );
  app.post(
    "/sca/factors/reset/:resetId/complete",
    {
      schema: {
        ...sca,
        description:
          "Completes a reset whose identity check passed: removes the factor and ends the SCA sessions; mobile becomes the customer's phoneNumber in the same step.",
        params: ResetParams,
        body: Type.Optional(TwoFactorResetCompleteRequest),
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      const { customerId } = request.query;
      await completeReset(deps, request.caller, customerId, request.params.resetId, request.body);
      return reply.code(204).send(null);
    },
  );
};
