import type { Executor, Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { PageRequest, PageResult } from "../core/http/pagination.js";
import { uuidv7 } from "../core/ids.js";
import { findTransaction } from "../payments/store.js";
import { toTransaction } from "../payments/wire.js";
import { toQuote } from "../quotes/quotes.js";
import * as quoteStore from "../quotes/store.js";
import { enqueueEvent } from "../webhooks/outbox.js";
import type { AgentAction } from "./schemas.js";
import * as store from "./store.js";

// AgentAction ids are `AgentAction:<uuidv7>` (the hosted API's prefix), made and parsed here: the closed
// table of prefixes in core/ids.ts belongs to another area.
const ACTION_PREFIX = "AgentAction:";
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const newActionId = () => `${ACTION_PREFIX}${uuidv7()}`;

export function parseActionId(raw: string): string | null {
  return raw.startsWith(ACTION_PREFIX) && uuidPattern.test(raw.slice(ACTION_PREFIX.length)) ? raw : null;
}

export const actionNotFound = (rawId: string) =>
  new ApiError("NOT_FOUND", { reason: `No agent action ${rawId}.` });

/**
 * Records the action of a payment an agent started, in the transaction that started it, and answers it as
 * it reads. One waiting for the platform fires `AGENT_ACTION.PENDING_APPROVAL` (the hosted
 * AgentActionWebhook, the action as `data`) in that same transaction.
 */
export async function recordAction(
  tx: Tx,
  action: Pick<
    store.AgentActionRow,
    "platform_id" | "agent_id" | "customer_id" | "type" | "status" | "amount" | "currency"
  > &
    Partial<Pick<store.AgentActionRow, "quote_id" | "transaction_id" | "transfer_details">>,
  now: Date,
): Promise<AgentAction> {
  const id = newActionId();
  await store.insertAction(tx, {
    quote_id: null,
    transaction_id: null,
    transfer_details: null,
    ...action,
    id,
    rejection_reason: null,
    created_at: now,
    updated_at: now,
  });
  const view = await store.findAction(tx, action.platform_id, id);
  if (!view) throw new Error(`agent action ${id} vanished`);
  const wire = await toAgentAction(tx, view, now);
  if (wire.status === "PENDING_APPROVAL")
    await enqueueEvent(tx, {
      platformId: action.platform_id,
      type: "AGENT_ACTION.PENDING_APPROVAL",
      data: wire,
      now,
    });
  return wire;
}

/** The wire AgentAction: the row with its quote and transaction as they are now. */
export async function toAgentAction(
  db: Executor,
  row: store.AgentActionView,
  now: Date,
): Promise<AgentAction> {
  const action: AgentAction = {
    id: row.id,
    agentId: row.agent_id,
    customerId: row.customer_id,
    status: row.status,
    type: row.type,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.platform_customer_id) action.platformCustomerId = row.platform_customer_id;
  if (row.quote_id) {
    const quote = await quoteStore.findQuote(db, row.platform_id, row.quote_id);
    if (quote) action.quote = toQuote(quote, now);
  }
  if (row.transfer_details) action.transferDetails = row.transfer_details;
  if (row.transaction_id) {
    const transaction = await findTransaction(db, row.platform_id, row.transaction_id);
    if (transaction) action.transaction = toTransaction(transaction);
  }
  if (row.rejection_reason) action.rejectionReason = row.rejection_reason;
  return action;
}

export async function toAgentActionPage(
  deps: Deps,
  caller: Caller,
  result: PageResult<store.AgentActionView>,
): Promise<PageResult<AgentAction>> {
  const now = nowFor(deps, caller);
  const data: AgentAction[] = [];
  for (const row of result.data) data.push(await toAgentAction(deps.db, row, now));
  return { ...result, data };
}

/**
 * `GET /agents/approvals`: the platform's agent actions waiting for its approval (PENDING_APPROVAL),
 * newest first, filtered by agent, customer and creation time.
 */
export async function listApprovals(
  deps: Deps,
  caller: Caller,
  filters: {
    agentId?: string | undefined;
    customerId?: string | undefined;
    startDate?: string | undefined;
    endDate?: string | undefined;
  },
  page: PageRequest,
): Promise<PageResult<AgentAction>> {
  const result = await store.listActions(
    deps.db,
    caller.platformId,
    {
      agentId: filters.agentId,
      customerId: filters.customerId,
      status: "PENDING_APPROVAL",
      startDate: filters.startDate === undefined ? undefined : new Date(filters.startDate),
      endDate: filters.endDate === undefined ? undefined : new Date(filters.endDate),
    },
    page,
  );
  return toAgentActionPage(deps, caller, result);
}

/** `GET /agents/me/actions`: the agent's own actions, newest first, optionally of one status. */
export async function listSelfActions(
  deps: Deps,
  caller: Caller,
  agentId: string,
  filters: { status?: store.AgentActionStatus | undefined },
  page: PageRequest,
): Promise<PageResult<AgentAction>> {
  const result = await store.listActions(
    deps.db,
    caller.platformId,
    { agentId, status: filters.status },
    page,
  );
  return toAgentActionPage(deps, caller, result);
}

/** `GET /agents/me/actions/{actionId}`: one of the agent's own actions; any other id is `404 NOT_FOUND`. */
export async function getSelfAction(
  deps: Deps,
  caller: Caller,
  agentId: string,
  rawId: string,
): Promise<AgentAction> {
  const id = parseActionId(rawId);
  const row = id ? await store.findAction(deps.db, caller.platformId, id) : undefined;
  if (!row || row.agent_id !== agentId) throw actionNotFound(rawId);
  return toAgentAction(deps.db, row, nowFor(deps, caller));
}
