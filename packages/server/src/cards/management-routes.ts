import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";

/** PATCH /cards/{id}, PIN, reveal and tokenize (conventions §6.2). */
export const cardManagementRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (
  _app,
  { deps: _deps },
) => {};
