import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";
import { ErrorBody, errorResponses } from "../core/http/schemas.js";
import type { ExecutionGate } from "../quotes/execution-gate.js";
import { Transaction } from "./schemas.js";
import { transferIn } from "./transfer-in.js";
import { transferOut } from "./transfer-out.js";
import { TransferInBody, TransferOutBody } from "./transfer-schemas.js";

/** Deprecated transfers (interface Versioning 2): use `POST /quotes` with `immediatelyExecute: true`. */
export const transferRoutes: FastifyPluginAsyncTypebox<{
  deps: Deps;
  gates: readonly ExecutionGate[];
}> = async (app, { deps, gates }) => {
  const tags = ["Transfers"];
  // 501: NOT_IMPLEMENTED (wallet destinations, production pulls); transfer-out runs the quote execution
  // gates, so also 429 DAILY_VOLUME_LIMIT_EXCEEDED.
  const response = { 201: Transaction, ...errorResponses, 501: ErrorBody };
  const outResponse = { ...response, 429: ErrorBody };

  app.post(
    "/transfer-out",
    {
      config: { permission: "TRANSACT" },
      schema: {
        tags,
        deprecated: true,
        description: "Deprecated: use POST /quotes with immediatelyExecute.",
        body: TransferOutBody,
        response: outResponse,
      },
    },
    async (request, reply) =>
      reply.code(201).send(await transferOut(deps, request.caller, request.body, gates)),
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
