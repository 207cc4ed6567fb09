import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { PinAttemptBody, PinAttemptResult } from "../cards/management-schemas.js";
import { attemptPin } from "../cards/pin.js";
import { CardParams } from "../cards/schemas.js";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";

/** Sandbox PIN simulations (incorrect PIN attempts at a terminal). */
export const sandboxCardPinRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    "/sandbox/cards/:cardId/simulate/pin_attempt",
    {
      config: { sandbox: true },
      schema: {
        tags: ["Sandbox"],
        description:
          "Checks a PIN as a terminal would: a correct PIN resets the wrong-attempt count; the third wrong PIN in a row blocks it.",
        params: CardParams,
        body: PinAttemptBody,
        response: { 200: PinAttemptResult, ...errorResponses },
      },
    },
    async (request) => attemptPin(deps, request.caller, request.params.cardId, request.body.pin),
  );
};
