import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { publicOrigin } from "../core/http/public-origin.js";
import { ErrorBody, errorResponses } from "../core/http/schemas.js";
import { findCustomerOrThrow } from "../customers/customers.js";
import { Transaction } from "../payments/schemas.js";
import { umaDomainOf } from "../platform/uma-domain.js";
import { lookupUma } from "./lookup.js";
import { answerPayRequest } from "./payreq-receive.js";
import { answerLnurlp, type ProtocolAnswer, platformOfDomain, umaErrorAnswer } from "./receive.js";
import { counterpartyKeysAnswer, counterpartyLnurlpAnswer } from "./sandbox-counterparty.js";
import { isSandboxCounterpartyDomain } from "./sandbox-counterparty-domains.js";
import {
  counterpartyPayReqAnswer,
  counterpartySettleAnswer,
  sandboxUmaReceive,
} from "./sandbox-counterparty-payments.js";
import {
  DomainParams,
  LookupParams,
  LookupQuery,
  ReceiverUmaLookupResponse,
  SandboxUmaReceiveBody,
  UserParams,
} from "./schemas.js";
import { answerUtxoCallback, settleInvoice } from "./settlement.js";
import { pubKeysBody, vaspKeys } from "./vasp-keys.js";

/** `GET /receiver/uma/{receiverUmaAddress}` (the hosted API's lookupUma) and `POST /sandbox/uma/receive`. */
export const umaRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    "/sandbox/uma/receive",
    {
      config: { sandbox: true },
      schema: {
        tags: ["Sandbox"],
        description:
          "The sandbox counterparty (an address @counterparty.sandbox.localhost) pays a customer of the platform by UMA: lookup, pay request and settlement over HTTP, as any VASP. Answers the customer's INCOMING transaction.",
        body: SandboxUmaReceiveBody,
        response: { 200: Transaction, ...errorResponses, 424: ErrorBody },
      },
    },
    async (request) => sandboxUmaReceive(deps, request.caller, publicOrigin(deps, app), request.body),
  );
  app.get(
    "/receiver/uma/:receiverUmaAddress",
    {
      schema: {
        tags: ["UMA"],
        description:
          "Looks up a UMA receiver: the signed LNURLP round trip with its VASP, whose public keys are fetched and checked. The answer's lookupId goes on the quote.",
        params: LookupParams,
        querystring: LookupQuery,
        response: { 200: ReceiverUmaLookupResponse, ...errorResponses, 412: ErrorBody, 424: ErrorBody },
      },
    },
    async (request) => {
      const { customerId, senderUmaAddress } = request.query;
      if (customerId !== undefined) await findCustomerOrThrow(deps.db, request.caller, customerId);
      return lookupUma(deps, request.caller, publicOrigin(deps, app), request.params.receiverUmaAddress, {
        senderUmaAddress,
        customerId,
      });
    },
  );
};

const send = (reply: FastifyReply, answer: ProtocolAnswer) => {
  const body = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
  return reply
    .code(answer.status)
    .type(typeof answer.body === "string" ? "text/html" : "application/json")
    .send(body);
};

/** The domain a request to `/.well-known/...` is for: its Host, without port. */
const hostDomain = (request: FastifyRequest) => request.hostname.replace(/:\d+$/, "").toLowerCase();

/**
 * The UMA protocol endpoints every platform's domain serves, unauthenticated and outside the API version:
 * at the domain's root (a deployment whose DNS points the domain here), and under `/uma/{domain}` (one
 * host serving several domains: loopback, the sandbox counterparty).
 */
export const umaProtocolRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const origin = () => publicOrigin(deps, app);
  const config = { public: true, idempotency: false } as const;

  async function pubKeys(domain: string): Promise<ProtocolAnswer> {
    if (deps.mode === "sandbox" && isSandboxCounterpartyDomain(domain)) return counterpartyKeysAnswer(domain);
    const platform = await platformOfDomain(deps, domain);
    if (!platform) return umaErrorAnswer(404, "NOT_FOUND", `${domain} is not served here.`);
    const keys = await vaspKeys(deps, platform.id, umaDomainOf(platform, deps.publicUrl));
    return { status: 200, body: pubKeysBody(keys.pubKeys) };
  }

  function lnurlp(domain: string, pathUser: string, request: FastifyRequest): Promise<ProtocolAnswer> {
    // UMA puts the `$` of the address in the path (`/.well-known/lnurlp/$alice`); LNURL clients do not.
    const user = pathUser.replace(/^\$/, "");
    const query = new URL(request.url, "http://local").searchParams;
    if (deps.mode === "sandbox" && isSandboxCounterpartyDomain(domain))
      return counterpartyLnurlpAnswer(deps, origin(), domain, user, query);
    return answerLnurlp(deps, origin(), domain, user, query);
  }

  app.get("/.well-known/lnurlpubkey", { config }, async (request, reply) =>
    send(reply, await pubKeys(hostDomain(request))),
  );
  app.get(
    "/uma/:domain/.well-known/lnurlpubkey",
    { config, schema: { params: DomainParams } },
    async (request, reply) => send(reply, await pubKeys(request.params.domain.toLowerCase())),
  );
  app.get(
    "/.well-known/lnurlp/:user",
    { config, schema: { params: Type.Object({ user: UserParams.properties.user }) } },
    async (request, reply) => send(reply, await lnurlp(hostDomain(request), request.params.user, request)),
  );
  const RootUser = Type.Object({ user: UserParams.properties.user });
  const payer = (user: string) => user.replace(/^\$/, "");
  app.post(
    "/uma/:domain/uma/payreq/:user",
    { config, schema: { params: UserParams } },
    async (request, reply) => {
      const domain = request.params.domain.toLowerCase();
      const user = payer(request.params.user);
      const body = JSON.stringify(request.body ?? null);
      if (deps.mode === "sandbox" && isSandboxCounterpartyDomain(domain))
        return send(reply, await counterpartyPayReqAnswer(deps, origin(), user, body));
      return send(reply, await answerPayRequest(deps, origin(), domain, user, body));
    },
  );
  app.post("/uma/payreq/:user", { config, schema: { params: RootUser } }, async (request, reply) => {
    const body = JSON.stringify(request.body ?? null);
    return send(
      reply,
      await answerPayRequest(deps, origin(), hostDomain(request), payer(request.params.user), body),
    );
  });
  app.post(
    "/uma/:domain/uma/utxo-callback",
    { config, schema: { params: DomainParams } },
    async (request, reply) => {
      const domain = request.params.domain.toLowerCase();
      if (deps.mode === "sandbox" && isSandboxCounterpartyDomain(domain))
        return send(reply, { status: 200, body: { status: "OK" } });
      return send(reply, await answerUtxoCallback(deps, origin(), domain, request.body));
    },
  );
  app.post(
    "/uma/:domain/uma/sandbox/settle",
    { config, schema: { params: DomainParams } },
    async (request, reply) => {
      const domain = request.params.domain.toLowerCase();
      if (deps.mode === "sandbox" && isSandboxCounterpartyDomain(domain))
        return send(reply, counterpartySettleAnswer(request.body));
      return send(reply, await settleInvoice(deps, domain, request.body));
    },
  );
  app.get(
    "/uma/:domain/.well-known/lnurlp/:user",
    { config, schema: { params: UserParams } },
    async (request, reply) =>
      send(reply, await lnurlp(request.params.domain.toLowerCase(), request.params.user, request)),
  );
};
