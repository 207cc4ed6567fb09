import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";
import { Transaction } from "../transactions/schemas.js";
import { TransferInBody, TransferOutBody } from "./schemas.js";
import { transferIn } from "./transfer-in.js";
import { transferOut } from "./transfer-out.js";

/** Deprecated transfers (interface Versioning 2): use `POST /quotes` with `immediatelyExecute: true`. */
export const transferRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Transfers"];
  const response = { 201: Transaction, ...errorResponses };

  app.post(
    "/transfer-out",
    {
      config: { permission: "TRANSACT" },
      schema: {
        tags,
        deprecated: true,
        description: "Deprecated: use POST /quotes with immediatelyExecute.",
        body: TransferOutBody,
        response,
      },
    },
    async (request, reply) => reply.code(201).send(await transferOut(deps, request.caller, request.body)),
  );

  app.post(
    "/transfer-in",
    {
      config: { permission: "TRANSACT" },
      schema: {
        tags,
        deprecated: true,
        description: "Deprecated: pulls from a USD bank account into an internal account.",
        body: TransferInBody,
        response,
      },
    },
    async (request, reply) => reply.code(201).send(await transferIn(deps, request.caller, request.body)),
  );
};
