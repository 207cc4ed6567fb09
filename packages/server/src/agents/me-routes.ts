import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { AgentOperation } from "../core/http/context.js";
import { schemaFieldErrors } from "../core/http/error-handler.js";
import { Page, PageQuery, Query, SortQuery, splitPageQuery } from "../core/http/pagination.js";
import { ErrorBody, errorResponses, StringEnum } from "../core/http/schemas.js";
import { InternalAccount, internalAccountTypes } from "../customers/schemas.js";
import { invalidAccountBody } from "../external-accounts/external-accounts.js";
import { CreatePlatformExternalAccountBody, ExternalAccount } from "../external-accounts/schemas.js";
import { TransferInBody, TransferOutBody } from "../payments/transfer-schemas.js";
import type { ExecutionGate } from "../quotes/execution-gate.js";
import { CreateQuoteBody, ExecuteQuoteBody, Quote } from "../quotes/schemas.js";
import { anyTransactionSchema, type CardRows } from "../transactions/card-rows.js";
import { getSelfAction, listSelfActions } from "./actions.js";
import {
  agentOf,
  agentTransferIn,
  agentTransferOut,
  createAgentQuote,
  executeAgentQuote,
  getAgentQuote,
} from "./payments.js";
import {
  Agent,
  AgentAction,
  AgentQuoteParams,
  AgentTransactionsQuery,
  agentActionStatuses,
} from "./schemas.js";
import {
  createSelfExternalAccount,
  deleteSelfExternalAccount,
  getSelf,
  getSelfExternalAccount,
  getSelfTransaction,
  listSelfExternalAccounts,
  listSelfInternalAccounts,
  listSelfTransactions,
} from "./self.js";
import { findAgent } from "./store.js";

const currency = Type.Optional(Type.String({ pattern: "^[A-Z]{3,5}$" }));
const security = [{ AgentAuth: [] }];
const ExternalAccountParams = Type.Object({ externalAccountId: Type.String() });
const responses = { ...errorResponses, 501: ErrorBody };

/**
 * The agent's own routes: AgentAuth (Bearer access token) only, bound to the agent's customer; each needs
 * its policy permission (403 FORBIDDEN); reads of its own accounts, quotes and actions need none. No Idempotency-Key: keys are scoped per platform, and two agents
 * of one platform must never be replayed each other's answers (docs/decisions/agents.md).
 */
export const agentSelfRoutes: FastifyPluginAsyncTypebox<{
  deps: Deps;
  gates: readonly ExecutionGate[];
  cards: CardRows;
}> = async (app, { deps, gates, cards }) => {
  const AnyTransaction = anyTransactionSchema(cards);
  const tags = ["Agent operations"];
  const agent = (operation?: AgentOperation) => ({
    auth: "agent" as const,
    idempotency: false as const,
    ...(operation ? { agentOperation: operation } : {}),
  });
  // A paused agent keeps its token but may only read itself (`GET /agents/me` shows `isPaused`).
  app.addHook("preValidation", async (request) => {
    if (request.routeOptions.url?.endsWith("/agents/me") && request.method === "GET") return;
    const caller = request.caller;
    const row = await findAgent(deps.db, caller.platformId, agentOf(caller).agentId);
    if (row?.is_paused) throw new ApiError("FORBIDDEN", { reason: "The agent is paused by its platform." });
  });

  app.get(
    "/agents/me",
    { config: agent(), schema: { tags, security, response: { 200: Agent, ...errorResponses } } },
    async (request) => getSelf(deps, request.caller),
  );
  app.get(
    "/agents/me/internal-accounts",
    {
      config: agent(),
      schema: {
        tags,
        security,
        querystring: Query({
          currency,
          type: Type.Optional(StringEnum(internalAccountTypes)),
          ...PageQuery,
          ...SortQuery,
        }),
        response: { 200: Page(InternalAccount), ...errorResponses },
      },
    },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listSelfInternalAccounts(deps, request.caller, filters, page);
    },
  );
  app.get(
    "/agents/me/external-accounts",
    {
      config: agent(),
      schema: {
        tags,
        security,
        querystring: Query({ currency, ...PageQuery, ...SortQuery }),
        response: { 200: Page(ExternalAccount), ...errorResponses },
      },
    },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listSelfExternalAccounts(deps, request.caller, filters, page);
    },
  );
  app.post(
    "/agents/me/external-accounts",
    {
      attachValidation: true,
      config: agent("MANAGE_EXTERNAL_ACCOUNTS"),
      schema: {
        tags,
        security,
        description:
          "Adds an external account of the agent's customer (same rules as POST /customers/external-accounts).",
        body: CreatePlatformExternalAccountBody,
        response: { 201: ExternalAccount, ...errorResponses },
      },
    },
    async (request, reply) => {
      const schemaErrors = schemaFieldErrors(request.validationError);
      if (schemaErrors) throw invalidAccountBody(schemaErrors, request.body);
      return reply.code(201).send(await createSelfExternalAccount(deps, request.caller, request.body));
    },
  );
  app.get(
    "/agents/me/external-accounts/:externalAccountId",
    {
      config: agent(),
      schema: {
        tags,
        security,
        params: ExternalAccountParams,
        response: { 200: ExternalAccount, ...errorResponses },
      },
    },
    async (request) => getSelfExternalAccount(deps, request.caller, request.params.externalAccountId),
  );
  app.delete(
    "/agents/me/external-accounts/:externalAccountId",
    {
      config: agent("MANAGE_EXTERNAL_ACCOUNTS"),
      schema: {
        tags,
        security,
        description:
          "Deletes one of the customer's external accounts (as DELETE /customers/external-accounts/{id}).",
        params: ExternalAccountParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteSelfExternalAccount(deps, request.caller, request.params.externalAccountId);
      return reply.code(204).send(null);
    },
  );
  app.post(
    "/agents/me/quotes",
    {
      config: agent("CREATE_QUOTES"),
      schema: {
        tags,
        security,
        description: "Prices a payment from the customer's account to its own account or external account.",
        body: CreateQuoteBody,
        response: { 201: Quote, ...responses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createAgentQuote(deps, request.caller, request.body)),
  );
  app.get(
    "/agents/me/quotes/:quoteId",
    {
      config: agent(),
      schema: { tags, security, params: AgentQuoteParams, response: { 200: Quote, ...errorResponses } },
    },
    async (request) => getAgentQuote(deps, request.caller, request.params.quoteId),
  );
  app.post(
    "/agents/me/quotes/:quoteId/execute",
    {
      config: { ...agent("EXECUTE_QUOTES"), optionalBody: true },
      schema: {
        tags,
        security,
        description:
          "Executes the agent's quote and answers its EXECUTE_QUOTE action: PENDING_APPROVAL while the policy requires the platform's approval (the payment waits as a PENDING transaction), else APPROVED.",
        params: AgentQuoteParams,
        body: ExecuteQuoteBody,
        response: { 200: AgentAction, ...responses },
      },
    },
    async (request) => executeAgentQuote(deps, request.caller, request.params.quoteId, gates),
  );
  app.get(
    "/agents/me/actions",
    {
      config: agent(),
      schema: {
        tags,
        security,
        description: "The agent's own actions (payments it started and their approval), newest first.",
        querystring: Query({
          status: Type.Optional(StringEnum(agentActionStatuses)),
          ...PageQuery,
          ...SortQuery,
        }),
        response: { 200: Page(AgentAction), ...errorResponses },
      },
    },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listSelfActions(deps, request.caller, agentOf(request.caller).agentId, filters, page);
    },
  );
  app.get(
    "/agents/me/actions/:actionId",
    {
      config: agent(),
      schema: {
        tags,
        security,
        params: Type.Object({ actionId: Type.String() }),
        response: { 200: AgentAction, ...errorResponses },
      },
    },
    async (request) =>
      getSelfAction(deps, request.caller, agentOf(request.caller).agentId, request.params.actionId),
  );
  app.post(
    "/agents/me/transfer-out",
    {
      config: agent("CREATE_TRANSFERS"),
      schema: {
        tags,
        security,
        description:
          "Pays out from the customer's internal account to its external account; answers the TRANSFER_OUT action (PENDING_APPROVAL while the policy requires platform approval).",
        body: TransferOutBody,
        response: { 201: AgentAction, ...responses, 429: ErrorBody },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await agentTransferOut(deps, request.caller, request.body, gates)),
  );
  app.post(
    "/agents/me/transfer-in",
    {
      config: agent("CREATE_TRANSFERS"),
      schema: {
        tags,
        security,
        description:
          "Pulls money from the customer's external account into its internal account; answers the TRANSFER_IN action (PENDING_APPROVAL, nothing moved, while the policy requires the platform's approval).",
        body: TransferInBody,
        response: { 201: AgentAction, ...responses },
      },
    },
    async (request, reply) => reply.code(201).send(await agentTransferIn(deps, request.caller, request.body)),
  );
  app.get(
    "/agents/me/transactions",
    {
      config: agent("VIEW_TRANSACTIONS"),
      schema: {
        tags,
        security,
        querystring: AgentTransactionsQuery,
        response: { 200: Page(AnyTransaction), ...errorResponses },
      },
    },
    async (request) => {
      const { filters, page } = splitPageQuery(request.query);
      return listSelfTransactions(deps, request.caller, filters, page, cards);
    },
  );
  app.get(
    "/agents/me/transactions/:transactionId",
    {
      config: agent("VIEW_TRANSACTIONS"),
      schema: {
        tags,
        security,
        params: Type.Object({ transactionId: Type.String() }),
        response: { 200: AnyTransaction, ...errorResponses },
      },
    },
    async (request) => getSelfTransaction(deps, request.caller, request.params.transactionId),
  );
};
