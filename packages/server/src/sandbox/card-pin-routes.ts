import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";

/** Sandbox PIN simulations (incorrect PIN attempts at a terminal). */
export const sandboxCardPinRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (
  _app,
  { deps: _deps },
) => {};
