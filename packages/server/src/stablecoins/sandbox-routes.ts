import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";
import { OperatorEnablementBody, Stablecoin, StablecoinParams } from "./schemas.js";
import { operatorSetEnablement, provisionStablecoin } from "./stablecoins.js";

/** The service operator's stablecoin steps, simulated in the sandbox (403 for production platforms). */
export const sandboxStablecoinRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Sandbox"];

  app.post(
    "/sandbox/stablecoins/:stablecoinId/enablement",
    {
      config: { sandbox: true },
      schema: {
        tags,
        description:
          "Operator enablement step: PENDING_APPROVAL → ENABLING or NOT_ENABLED; ENABLING → ENABLED or DISABLED; ENABLED → DISABLED; DISABLED → ENABLING. Anything else is 409 INVALID_STATE_TRANSITION.",
        params: StablecoinParams,
        body: OperatorEnablementBody,
        response: { 200: Stablecoin, ...errorResponses },
      },
    },
    async (request) =>
      operatorSetEnablement(deps, request.caller, request.params.stablecoinId, request.body.status),
  );

  app.post(
    "/sandbox/stablecoins/:stablecoinId/provision",
    {
      config: { sandbox: true, optionalBody: true },
      schema: {
        tags,
        description: "Operator step: provisions the stablecoin for issuer operations (mint, burn).",
        params: StablecoinParams,
        body: Type.Object({}, { additionalProperties: false }),
        response: { 200: Stablecoin, ...errorResponses },
      },
    },
    async (request) => provisionStablecoin(deps, request.caller, request.params.stablecoinId),
  );
};
