import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";
import { credentialRoutes } from "./credential-routes.js";
import { delegatedKeyRoutes } from "./delegated-keys-routes.js";
import { exportRoutes } from "./export-routes.js";
import { sessionRoutes } from "./session-routes.js";

/** Embedded wallet authentication (conventions §5): credentials, sessions, export, delegated keys. */
export const walletAuthRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  await app.register(credentialRoutes, { deps });
  await app.register(sessionRoutes, { deps });
  await app.register(exportRoutes, { deps });
  await app.register(delegatedKeyRoutes, { deps });
};
