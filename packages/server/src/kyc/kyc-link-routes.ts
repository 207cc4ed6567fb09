import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import type { Deps } from "../core/deps.js";
import { toApiError } from "../core/http/error-handler.js";
import { ErrorBody, errorResponses } from "../core/http/schemas.js";
import { API_VERSION } from "../core/http/version.js";
import { CustomerParams } from "../customers/schemas.js";
import {
  createKycLink,
  type KycPageState,
  NO_KYC_PROVIDER,
  submitByKycLink,
  viewKycPage,
} from "./kyc-link.js";
import {
  kycPageHeaders,
  renderKycGonePage,
  renderKycPage,
  renderKycProblemPage,
  renderSubmittedPage,
} from "./kyc-link-page.js";
import { CreateKycLinkBody, KYC_PAGE_PATH, KycLink, KycPageParams } from "./kyc-link-schemas.js";

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(kycPageHeaders).send(html);
}

function pageFor(reply: FastifyReply, state: Awaited<ReturnType<typeof submitByKycLink>>): FastifyReply {
  if ("gone" in state) return sendPage(reply, 410, renderKycGonePage(state.gone));
  if ("unavailable" in state)
    return sendPage(reply, 501, renderKycProblemPage("Verification unavailable", NO_KYC_PROVIDER));
  if ("submitted" in state) return sendPage(reply, 200, renderSubmittedPage(state.submitted, state.view));
  return sendPage(reply, 200, renderKycPage((state as Extract<KycPageState, { open: unknown }>).open));
}

/**
 * The page a person's browser opens (the link's `kycUrl`): public, since the unguessable token is the
 * credential; HTML for every answer. Its form posts are url-encoded and carry nothing the flow reads.
 */
const hostedPage: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 1024 },
    (_r, _b, done) => done(null, {}),
  );
  app.setErrorHandler((error, _request, reply) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) throw error;
    return sendPage(
      reply,
      apiError.status,
      renderKycProblemPage("The page could not be used", apiError.reason),
    );
  });
  app.get(
    KYC_PAGE_PATH,
    { config: { public: true }, schema: { params: KycPageParams } },
    async (request, reply) => pageFor(reply, await viewKycPage(deps, request.params.token)),
  );
  app.post(
    KYC_PAGE_PATH,
    { config: { public: true, idempotency: false }, schema: { params: KycPageParams } },
    async (request, reply) => pageFor(reply, await submitByKycLink(deps, request.params.token)),
  );
};

/** `POST /customers/{customerId}/kyc-link` (the hosted API's createCustomerKycLink) and the page it links to. */
export const kycLinkRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  await app.register(hostedPage, { deps });
  app.post(
    "/customers/:customerId/kyc-link",
    {
      // The hosted API's body is optional: an empty body with no Content-Type is `{}`.
      config: { optionalBody: true },
      schema: {
        tags: ["Customer verification"],
        description:
          "A link to the hosted verification page, where the person submits the customer's verification (sandbox platforms).",
        params: CustomerParams,
        body: CreateKycLinkBody,
        response: { 201: KycLink, ...errorResponses, 501: ErrorBody },
      },
    },
    async (request, reply) => {
      const input = {
        rawCustomerId: request.params.customerId,
        redirectUri: request.body.redirectUri,
        origin: `${request.protocol}://${request.host}/${API_VERSION}`,
      };
      return reply.code(201).send(await createKycLink(deps, request.caller, input));
    },
  );
};
