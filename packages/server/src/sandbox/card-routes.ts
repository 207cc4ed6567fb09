import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";

/** Sandbox card simulations: POST /sandbox/cards/{id}/simulate/<op> (conventions §6.5). */
export const sandboxCardRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (
  _app,
  { deps: _deps },
) => {};
