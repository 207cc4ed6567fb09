import type { Executor } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { PageRequest, PageResult } from "../core/http/pagination.js";
import { newId, parseId } from "../core/ids.js";
import { findActiveCustomerOrThrow } from "../customers/customers.js";
import { issueDeviceCode } from "./device-codes.js";
import { agentUsage, checkPolicy, mergePolicy } from "./policy.js";
import type {
  Agent,
  CreateAgentBody,
  CreatedAgent,
  DeviceCode,
  UpdateAgentBody,
  UpdatePolicyBody,
} from "./schemas.js";
import * as store from "./store.js";

export const agentNotFound = (rawId: string) => new ApiError("NOT_FOUND", { reason: `No agent ${rawId}.` });

/** The hosted API's Agent: `isConnected` while it holds an access token, `usage` counted as of `now`. */
export async function toAgent(db: Executor, row: store.AgentRow, now: Date): Promise<Agent> {
  return {
    id: row.id,
    name: row.name,
    customerId: row.customer_id,
    isPaused: row.is_paused,
    isConnected: row.token_hash !== null,
    policy: row.policy,
    usage: await agentUsage(db, row, now),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** `POST /agents`: an agent bound to one active customer, with its first device code (AgentCreateResponse). */
export async function createAgent(deps: Deps, caller: Caller, body: CreateAgentBody): Promise<CreatedAgent> {
  const policy = checkPolicy(body.policy);
  return deps.db.transaction(async (tx) => {
    const customer = await findActiveCustomerOrThrow(tx, caller, body.customerId);
    const now = nowFor(deps, caller);
    const row: store.AgentRow = {
      id: newId("Agent"),
      platform_id: caller.platformId,
      customer_id: customer.id,
      name: body.name,
      status: "ACTIVE",
      policy,
      is_paused: false,
      token_hash: null,
      token_issued_at: null,
      revoked_at: null,
      created_at: now,
      updated_at: now,
    };
    await store.insertAgent(tx, row);
    const deviceCode = await issueDeviceCode(tx, row.id, now);
    return { agent: await toAgent(tx, row, now), deviceCode };
  });
}

/**
 * Reads an agent of the caller's platform; malformed, foreign, unknown or deleted ids are `404 NOT_FOUND`
 * (`includeDeleted` finds a deleted one: its actions can still be approved or rejected).
 */
export async function findAgentOrThrow(
  db: Executor,
  caller: Caller,
  rawId: string,
  options: { lock?: boolean; includeDeleted?: boolean } = {},
) {
  const id = parseId("Agent", rawId);
  const row = id
    ? await store.findAgent(db, caller.platformId, id, options.lock, options.includeDeleted)
    : undefined;
  if (!row) throw agentNotFound(rawId);
  return row;
}

export async function getAgent(deps: Deps, caller: Caller, rawId: string): Promise<Agent> {
  return toAgent(deps.db, await findAgentOrThrow(deps.db, caller, rawId), nowFor(deps, caller));
}

export async function listAgents(
  deps: Deps,
  caller: Caller,
  filters: {
    customerId?: string | undefined;
    isPaused?: boolean | undefined;
    isConnected?: boolean | undefined;
    createdAfter?: string | undefined;
    createdBefore?: string | undefined;
    updatedAfter?: string | undefined;
    updatedBefore?: string | undefined;
  },
  page: PageRequest,
): Promise<PageResult<Agent>> {
  const date = (value: string | undefined) => (value === undefined ? undefined : new Date(value));
  const result = await store.listAgents(
    deps.db,
    caller.platformId,
    {
      customerId: filters.customerId,
      isPaused: filters.isPaused,
      isConnected: filters.isConnected,
      createdAfter: date(filters.createdAfter),
      createdBefore: date(filters.createdBefore),
      updatedAfter: date(filters.updatedAfter),
      updatedBefore: date(filters.updatedBefore),
    },
    page,
  );
  const now = nowFor(deps, caller);
  const data: Agent[] = [];
  for (const row of result.data) data.push(await toAgent(deps.db, row, now));
  return { ...result, data };
}

/** `PATCH /agents/{id}`: the name and `isPaused` (a paused agent's token answers 403 but `GET /agents/me`). */
export async function updateAgent(deps: Deps, caller: Caller, rawId: string, body: UpdateAgentBody) {
  return deps.db.transaction(async (tx) => {
    const row = await findAgentOrThrow(tx, caller, rawId, { lock: true });
    const now = nowFor(deps, caller);
    const updated = await store.updateAgent(tx, row.id, { name: body.name, is_paused: body.isPaused, now });
    return toAgent(tx, updated, now);
  });
}

/**
 * `DELETE /agents/{id}`: its access token stops working at once and open device codes are voided. The row
 * stays (status REVOKED) for its actions' history; every agent route then answers `404`.
 */
export async function deleteAgent(deps: Deps, caller: Caller, rawId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await findAgentOrThrow(tx, caller, rawId, { lock: true });
    const now = nowFor(deps, caller);
    await store.voidDeviceCodes(tx, row.id, now);
    await store.updateAgent(tx, row.id, { status: "REVOKED", revoked_at: now, now });
  });
}

/** `POST /agents/{id}/device-codes`: a new code; redeeming it replaces the agent's access token. */
export async function createDeviceCode(deps: Deps, caller: Caller, rawId: string): Promise<DeviceCode> {
  return deps.db.transaction(async (tx) => {
    const row = await findAgentOrThrow(tx, caller, rawId, { lock: true });
    return issueDeviceCode(tx, row.id, nowFor(deps, caller));
  });
}

/**
 * `PATCH /agents/{id}/policy`: the fields given replace the current policy's (spendingLimits field by
 * field), checked like a new policy (`400 INVALID_INPUT`). Payments already waiting keep their state.
 */
export async function updateAgentPolicy(
  deps: Deps,
  caller: Caller,
  rawId: string,
  body: UpdatePolicyBody,
): Promise<Agent> {
  return deps.db.transaction(async (tx) => {
    const row = await findAgentOrThrow(tx, caller, rawId, { lock: true });
    const now = nowFor(deps, caller);
    const updated = await store.updateAgent(tx, row.id, { policy: mergePolicy(row.policy, body), now });
    return toAgent(tx, updated, now);
  });
}
