import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../../core/deps.js";

/** The hosted LIVENESS page of the sandbox provider (conventions §4.2). */
export const livenessRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (_app, { deps: _deps }) => {};
