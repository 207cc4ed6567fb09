import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { publicOrigin } from "../core/http/public-origin.js";
import { errorResponses } from "../core/http/schemas.js";
import {
  RevealLink,
  RevealPageParams,
  SetPinBody,
  TokenizeCardBody,
  TokenizeCardResult,
} from "./management-schemas.js";
import { setPin } from "./pin.js";
import { openReveal, REVEAL_PAGE_PATH, revealCard } from "./reveal.js";
import { renderRevealGonePage, renderRevealPage, revealPageHeaders } from "./reveal-page.js";
import { Card, CardParams, UpdateCardBody } from "./schemas.js";
import { updateCard } from "./status.js";
import { tokenizeCard } from "./tokenize.js";

const tags = ["Cards"];

/** PATCH /cards/{id}, PIN, reveal (and its public page) and tokenize (conventions §6.2). */
export const cardManagementRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.patch(
    "/cards/:cardId",
    {
      schema: {
        tags,
        description:
          "Changes status (ACTIVE, FROZEN, CLOSED), funding sources (full replacement) or maxSpendPerTransaction (null clears it).",
        params: CardParams,
        body: UpdateCardBody,
        response: { 200: Card, ...errorResponses },
      },
    },
    async (request) => updateCard(deps, request.caller, request.params.cardId, request.body),
  );

  app.post(
    "/cards/:cardId/pin",
    {
      schema: {
        tags,
        description:
          "Sets or replaces the card's PIN (4-6 digits); pinStatus becomes OK. The PIN is stored only as a salted hash and never returned.",
        params: CardParams,
        body: SetPinBody,
        response: { 200: Card, ...errorResponses },
      },
    },
    async (request) => setPin(deps, request.caller, request.params.cardId, request.body.pin),
  );

  app.post(
    "/cards/:cardId/reveal",
    {
      config: { optionalBody: true },
      schema: {
        tags,
        description:
          "A single-use link, valid 5 minutes, to an embeddable page showing the full card number, expiry and CVV.",
        params: CardParams,
        body: Type.Object({}, { additionalProperties: false }),
        response: { 200: RevealLink, ...errorResponses },
      },
    },
    async (request) => revealCard(deps, request.caller, request.params.cardId, publicOrigin(deps, app)),
  );

  // The page behind panEmbedUrl: opened by a browser (usually in the platform's iframe), so it needs no
  // API credentials; the single-use token is the credential. Hidden from OpenAPI as a public route. No
  // implicit HEAD route: a link checker's HEAD would otherwise consume the link.
  app.get(
    REVEAL_PAGE_PATH,
    { config: { public: true }, exposeHeadRoute: false, schema: { params: RevealPageParams } },
    async (request, reply) => {
      const card = await openReveal(deps, request.params.token);
      return reply
        .code(card ? 200 : 410)
        .headers(revealPageHeaders(card?.frameAncestors))
        .send(card ? renderRevealPage(card) : renderRevealGonePage());
    },
  );

  app.post(
    "/cards/:cardId/tokenize",
    {
      schema: {
        tags,
        description:
          "Push provisioning to a digital wallet: the pass data (PAN, expiry, name) HPKE-sealed to the wallet's P-256 key.",
        params: CardParams,
        body: TokenizeCardBody,
        response: { 200: TokenizeCardResult, ...errorResponses },
      },
    },
    async (request) => tokenizeCard(deps, request.caller, request.params.cardId, request.body),
  );
};
