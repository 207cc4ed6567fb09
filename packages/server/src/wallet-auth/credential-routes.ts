import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";

export const credentialRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (
  _app,
  { deps: _deps },
) => {};
