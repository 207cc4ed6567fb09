import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";
import { advancePlatformClock, readPlatformClock } from "../platform/clock.js";
import { sandboxStablecoinRoutes } from "../stablecoins/sandbox-routes.js";
import { sendTestEvent } from "../webhooks/deliveries.js";
import { WebhookTestResult } from "../webhooks/schemas.js";
import { sandboxCardPinRoutes } from "./card-pin-routes.js";
import { sandboxCardRoutes } from "./card-routes.js";
import { sandboxMoneyRoutes } from "./money-routes.js";
import type { RequestLog } from "./request-log.js";
import { sandboxRequestLogRoutes } from "./request-log-routes.js";

/**
 * Sandbox simulations (conventions §1.9): registered only in sandbox mode, and `config.sandbox` makes
 * the auth hook answer 403 to production platforms. Other areas add their simulations here.
 */
export const sandboxRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; requestLog?: RequestLog }> = async (
  app,
  { deps, requestLog },
) => {
  const tags = ["Sandbox"];
  const config = { sandbox: true, optionalBody: true };

  app.post(
    "/sandbox/webhooks/test",
    {
      config,
      schema: {
        tags,
        description:
          "Sends a TEST event to the configured webhook endpoint and reports the receiver's answer.",
        body: Type.Object({}, { additionalProperties: false }),
        response: { 200: WebhookTestResult, ...errorResponses },
      },
    },
    async (request) => sendTestEvent(deps, request.caller),
  );

  const Clock = Type.Object({ now: Type.String({ format: "date-time" }) });

  app.get(
    "/sandbox/clock",
    {
      config,
      schema: {
        tags,
        description: "This platform's sandbox clock.",
        response: { 200: Clock, ...errorResponses },
      },
    },
    async (request) => readPlatformClock(deps, request.caller),
  );

  app.post(
    "/sandbox/clock/advance",
    {
      config: { sandbox: true },
      schema: {
        tags,
        description:
          "Moves this platform's clock forward to `to`. Every timestamp the service assigns for the platform reads this clock; it never moves back.",
        body: Type.Object({ to: Type.String({ format: "date-time" }) }, { additionalProperties: false }),
        response: { 200: Clock, ...errorResponses },
      },
    },
    async (request) => advancePlatformClock(deps, request.caller, request.body.to),
  );

  await app.register(sandboxMoneyRoutes, { deps });
  await app.register(sandboxCardRoutes, { deps });
  await app.register(sandboxCardPinRoutes, { deps });
  await app.register(sandboxStablecoinRoutes, { deps });
  if (requestLog) await app.register(sandboxRequestLogRoutes, { log: requestLog });
};
