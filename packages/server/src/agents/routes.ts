import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { Page, PageQuery, Query, SortQuery, splitPageQuery } from "../core/http/pagination.js";
import { DateTime, errorResponses } from "../core/http/schemas.js";
import { Transaction } from "../payments/schemas.js";
import type { ExecutionGate } from "../quotes/execution-gate.js";
import type { CardRows } from "../transactions/card-rows.js";
import { listApprovals } from "./actions.js";
import {
  createAgent,
  createDeviceCode,
  deleteAgent,
  getAgent,
  listAgents,
  updateAgent,
  updateAgentPolicy,
} from "./agents.js";
import { approveAction, approveTransaction, rejectAction, rejectTransaction } from "./approval.js";
import { deviceCodeStatus, redeemDeviceCode } from "./device-codes.js";
import { agentSelfRoutes } from "./me-routes.js";
import {
  Agent,
  AgentAction,
  AgentActionParams,
  AgentParams,
  CreateAgentBody,
  CreatedAgent,
  DeviceCode,
  DeviceCodeParams,
  DeviceCodeStatus,
  RedeemedDeviceCode,
  RejectActionBody,
  UpdateAgentBody,
  UpdatePolicyBody,
} from "./schemas.js";

const NoBody = Type.Object({}, { additionalProperties: false });

/** Agent management by the platform (BasicAuth), the device-code redeem (no credentials) and the agent's own routes. */
export const agentRoutes: FastifyPluginAsyncTypebox<{
  deps: Deps;
  gates: readonly ExecutionGate[];
  cards: CardRows;
}> = async (app, { deps, gates, cards }) => {
  const tags = ["Agents"];
  const one = { tags, params: AgentParams };

  app.post(
    "/agents",
    {
      schema: {
        tags,
        description:
          "Creates an agent bound to one customer, with its policy; answers it with a first device code.",
        body: CreateAgentBody,
        response: { 201: CreatedAgent, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createAgent(deps, request.caller, request.body)),
  );
  app.get(
    "/agents",
    {
      schema: {
        tags,
        querystring: Query({
          customerId: Type.Optional(Type.String({ maxLength: 100 })),
          isPaused: Type.Optional(Type.Boolean()),
          isConnected: Type.Optional(Type.Boolean()),
          createdAfter: Type.Optional(DateTime()),
          createdBefore: Type.Optional(DateTime()),
          updatedAfter: Type.Optional(DateTime()),
          updatedBefore: Type.Optional(DateTime()),
          ...PageQuery,
          ...SortQuery,
        }),
        response: { 200: Page(Agent), ...errorResponses },
      },
    },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listAgents(deps, request.caller, filters, page);
    },
  );
  app.get(
    "/agents/approvals",
    {
      schema: {
        tags,
        description:
          "Agent actions of the platform waiting for its approval (PENDING_APPROVAL), newest first.",
        querystring: Query({
          agentId: Type.Optional(Type.String({ maxLength: 100 })),
          customerId: Type.Optional(Type.String({ maxLength: 100 })),
          startDate: Type.Optional(DateTime({ description: "Created at or after this instant" })),
          endDate: Type.Optional(DateTime({ description: "Created at or before this instant" })),
          ...PageQuery,
          ...SortQuery,
        }),
        response: { 200: Page(AgentAction), ...errorResponses },
      },
    },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listApprovals(deps, request.caller, filters, page);
    },
  );
  app.get(
    "/agents/:agentId",
    { schema: { ...one, response: { 200: Agent, ...errorResponses } } },
    async (request) => getAgent(deps, request.caller, request.params.agentId),
  );
  app.patch(
    "/agents/:agentId",
    {
      schema: {
        ...one,
        description: "Renames the agent or pauses it (a paused agent's token may only read GET /agents/me).",
        body: UpdateAgentBody,
        response: { 200: Agent, ...errorResponses },
      },
    },
    async (request) => updateAgent(deps, request.caller, request.params.agentId, request.body),
  );
  app.patch(
    "/agents/:agentId/policy",
    {
      schema: {
        ...one,
        description:
          "Changes the agent's policy: the fields given replace the current ones, the others stay.",
        body: UpdatePolicyBody,
        response: { 200: Agent, ...errorResponses },
      },
    },
    async (request) => updateAgentPolicy(deps, request.caller, request.params.agentId, request.body),
  );
  app.post(
    "/agents/:agentId/actions/:actionId/approve",
    {
      config: { permission: "TRANSACT", optionalBody: true },
      schema: {
        tags,
        description:
          "Approves an agent action in PENDING_APPROVAL: its payment executes (as POST /transactions/{id}/approve).",
        params: AgentActionParams,
        body: NoBody,
        response: { 200: AgentAction, ...errorResponses },
      },
    },
    async (request) =>
      approveAction(deps, request.caller, request.params.agentId, request.params.actionId, gates),
  );
  app.post(
    "/agents/:agentId/actions/:actionId/reject",
    {
      config: { permission: "TRANSACT", optionalBody: true },
      schema: {
        tags,
        description:
          "Rejects an agent action in PENDING_APPROVAL: the action is REJECTED, its payment and quote FAILED.",
        params: AgentActionParams,
        body: RejectActionBody,
        response: { 200: AgentAction, ...errorResponses },
      },
    },
    async (request) =>
      rejectAction(deps, request.caller, request.params.agentId, request.params.actionId, request.body),
  );
  app.get(
    "/agents/device-codes/:code/status",
    {
      // The code is in the path, and request lines are logged at info: this route logs warnings only.
      logLevel: "warn",
      schema: {
        tags,
        description: "Whether the platform's agent has redeemed this device code.",
        params: DeviceCodeParams,
        response: { 200: DeviceCodeStatus, ...errorResponses },
      },
    },
    async (request) => deviceCodeStatus(deps, request.caller, request.params.code),
  );
  app.delete(
    "/agents/:agentId",
    {
      schema: {
        ...one,
        description:
          "Deletes the agent: its access token stops working, open device codes are voided; its actions stay.",
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteAgent(deps, request.caller, request.params.agentId);
      return reply.code(204).send(null);
    },
  );
  app.post(
    "/agents/:agentId/device-codes",
    {
      config: { optionalBody: true },
      schema: {
        ...one,
        description:
          "Issues a device code (10 minutes, single use); redeeming it replaces the agent's access token.",
        body: NoBody,
        response: { 201: DeviceCode, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createDeviceCode(deps, request.caller, request.params.agentId)),
  );
  app.post(
    "/agents/device-codes/:code/redeem",
    {
      // The code is in the path, and request lines are logged at info: this route logs warnings only.
      logLevel: "warn",
      config: { auth: "none", idempotency: false, optionalBody: true },
      schema: {
        tags,
        description: "Redeems a device code for the agent's access token (AgentAuth Bearer). No credentials.",
        security: [],
        params: DeviceCodeParams,
        body: NoBody,
        response: { 200: RedeemedDeviceCode, ...errorResponses },
      },
    },
    async (request) => redeemDeviceCode(deps, request.params.code),
  );

  app.post(
    "/transactions/:transactionId/approve",
    {
      config: { permission: "TRANSACT", optionalBody: true },
      schema: {
        tags: ["Transactions"],
        description:
          "Approves an agent-initiated payment waiting with pendingReason PLATFORM_APPROVAL_REQUIRED and executes it.",
        params: Type.Object({ transactionId: Type.String() }),
        body: NoBody,
        response: { 200: Transaction, ...errorResponses },
      },
    },
    async (request) => approveTransaction(deps, request.caller, request.params.transactionId, gates),
  );

  app.post(
    "/transactions/:transactionId/reject",
    {
      config: { permission: "TRANSACT", optionalBody: true },
      schema: {
        tags: ["Transactions"],
        description:
          "Rejects an agent-initiated payment waiting with pendingReason PLATFORM_APPROVAL_REQUIRED: it FAILS, its quote FAILS and its agent action is REJECTED with the optional reason; no money moves.",
        params: Type.Object({ transactionId: Type.String() }),
        body: RejectActionBody,
        response: { 200: Transaction, ...errorResponses },
      },
    },
    async (request) => rejectTransaction(deps, request.caller, request.params.transactionId, request.body),
  );

  await app.register(agentSelfRoutes, { deps, gates, cards });
};
