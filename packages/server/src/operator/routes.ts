import { timingSafeEqual } from "node:crypto";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import { MAX_AMOUNT } from "../core/money.js";
import { type OperatorCommand, performOperatorCommand } from "./commands.js";

const PlatformParams = Type.Object({ platformId: Type.String({ pattern: "^Platform:", maxLength: 64 }) });
const INT4 = 2_147_483_647;

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `/_operator/*`: the operator commands (`paysvc create-platform`, `card-limits`, `daily-volume-limit`)
 * run against a live server, which alone may write its embedded database. Authenticated by the operator
 * secret of `<data dir>/operator.json` (Bearer), never by a platform token; not part of the public API
 * and not in its OpenAPI document.
 */
export const operatorRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; secret: string }> = async (
  app,
  { deps, secret },
) => {
  app.addHook("onRequest", async (request) => {
    const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "");
    if (!match?.[1] || !sameSecret(match[1], secret))
      throw new ApiError("UNAUTHORIZED", {
        reason: "Operator routes take the operator secret of the data directory (Bearer).",
        headers: { "www-authenticate": 'Bearer realm="paysvc-operator"' },
      });
  });
  const run = (command: OperatorCommand) => performOperatorCommand(deps, command);
  const config = { auth: "none" as const };

  app.post(
    "/platforms",
    {
      config,
      schema: {
        hide: true,
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 200 }),
            environment: Type.Enum(["SANDBOX", "PRODUCTION"]),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => reply.code(201).send(await run({ kind: "create-platform", ...request.body })),
  );
  app.put(
    "/platforms/:platformId/card-limits",
    {
      config,
      schema: {
        hide: true,
        params: PlatformParams,
        body: Type.Object(
          {
            maxLiveCards: Type.Integer({ minimum: 0, maximum: INT4 }),
            maxLiveCardsPerCardholder: Type.Optional(
              Type.Union([Type.Integer({ minimum: 1, maximum: INT4 }), Type.Null()]),
            ),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => run({ kind: "card-limits", platformId: request.params.platformId, ...request.body }),
  );
  app.post(
    "/platforms/:platformId/webhook-signing-keys",
    { config, schema: { hide: true, params: PlatformParams } },
    async (request, reply) =>
      reply.code(201).send(await run({ kind: "rotate-webhook-key", platformId: request.params.platformId })),
  );
  app.put(
    "/platforms/:platformId/daily-volume-limit",
    {
      config,
      schema: {
        hide: true,
        params: PlatformParams,
        body: Type.Object(
          { dailyVolumeLimit: Type.Integer({ minimum: 0, maximum: MAX_AMOUNT }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) =>
      run({ kind: "daily-volume-limit", platformId: request.params.platformId, ...request.body }),
  );
};
