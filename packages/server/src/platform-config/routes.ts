import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";
import { PlatformConfig, UpdateConfigBody } from "../platform/schemas.js";
import { getConfig, updateConfig } from "./platforms.js";

export const configRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Platform configuration"];

  app.get(
    "/config",
    { schema: { tags, response: { 200: PlatformConfig, ...errorResponses } } },
    async (request) => getConfig(deps, request.caller),
  );

  app.patch(
    "/config",
    { schema: { tags, body: UpdateConfigBody, response: { 200: PlatformConfig, ...errorResponses } } },
    async (request) => updateConfig(deps, request.caller, request.body),
  );
};
