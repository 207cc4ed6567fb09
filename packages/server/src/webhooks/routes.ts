import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";

export const webhookRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (_app, _options) => {};
