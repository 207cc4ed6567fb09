import type { Executor } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidInput } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { PageRequest, PageResult } from "../core/http/pagination.js";
import { newId, parseId } from "../core/ids.js";
import { isKnownCurrency } from "../core/money.js";
import { findActiveCustomerOrThrow } from "../customers/customers.js";
import { issueDeviceCode } from "./device-codes.js";
import type {
  Agent,
  AgentPolicy,
  AgentPolicyInput,
  CreateAgentBody,
  DeviceCode,
  UpdateAgentBody,
  UpdatePolicyBody,
} from "./schemas.js";
import * as store from "./store.js";

export const agentNotFound = (rawId: string) => new ApiError("NOT_FOUND", { reason: `No agent ${rawId}.` });

export function toAgent(row: store.AgentRow): Agent {
  const agent: Agent = {
    id: row.id,
    customerId: row.customer_id,
    name: row.name,
    status: row.status,
    policy: row.policy,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.token_issued_at) agent.accessTokenIssuedAt = row.token_issued_at.toISOString();
  if (row.revoked_at) agent.revokedAt = row.revoked_at.toISOString();
  return agent;
}

/** The stored policy: defaults applied; every currency known and listed once (`400 INVALID_INPUT`). */
function checkPolicy(input: AgentPolicyInput, prefix = "policy."): AgentPolicy {
  const maxima = input.maxTransactionAmounts ?? [];
  const errors = maxima.flatMap((entry, i) => {
    const field = `${prefix}maxTransactionAmounts[${i}].currency`;
    if (!isKnownCurrency(entry.currency))
      return [{ field, message: `${entry.currency} is not a supported currency` }];
    if (maxima.findIndex((other) => other.currency === entry.currency) !== i)
      return [{ field, message: `${entry.currency} is listed more than once` }];
    return [];
  });
  if (errors.length > 0) throw invalidInput(errors);
  return {
    allowedOperations: [...input.allowedOperations],
    maxTransactionAmounts: maxima.map(({ currency, amount }) => ({ currency, amount })),
    requirePlatformApproval: input.requirePlatformApproval ?? true,
  };
}

/** `POST /agents`: an agent bound to one active customer, with its first device code. */
export async function createAgent(
  deps: Deps,
  caller: Caller,
  body: CreateAgentBody,
): Promise<Agent & { deviceCode: DeviceCode }> {
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
      token_hash: null,
      token_issued_at: null,
      revoked_at: null,
      created_at: now,
      updated_at: now,
    };
    await store.insertAgent(tx, row);
    return { ...toAgent(row), deviceCode: await issueDeviceCode(tx, row.id, now) };
  });
}

/** Reads an agent of the caller's platform; malformed, foreign or unknown ids are `404 NOT_FOUND`. */
export async function findAgentOrThrow(db: Executor, caller: Caller, rawId: string, lock = false) {
  const id = parseId("Agent", rawId);
  const row = id ? await store.findAgent(db, caller.platformId, id, lock) : undefined;
  if (!row) throw agentNotFound(rawId);
  return row;
}

export async function getAgent(deps: Deps, caller: Caller, rawId: string): Promise<Agent> {
  return toAgent(await findAgentOrThrow(deps.db, caller, rawId));
}

export async function listAgents(
  deps: Deps,
  caller: Caller,
  filters: { customerId?: string | undefined; status?: string | undefined },
  page: PageRequest,
): Promise<PageResult<Agent>> {
  const result = await store.listAgents(deps.db, caller.platformId, filters, page);
  return { ...result, data: result.data.map(toAgent) };
}

const revokedConflict = (row: store.AgentRow) =>
  new ApiError("CONFLICT", { reason: `Agent ${row.id} is revoked and cannot be changed.` });

/** `PATCH /agents/{id}`: the name. */
export async function updateAgent(deps: Deps, caller: Caller, rawId: string, body: UpdateAgentBody) {
  return deps.db.transaction(async (tx) => {
    const row = await findAgentOrThrow(tx, caller, rawId, true);
    if (row.status === "REVOKED") throw revokedConflict(row);
    return toAgent(await store.updateAgent(tx, row.id, { name: body.name, now: nowFor(deps, caller) }));
  });
}

/** `POST /agents/{id}/revoke`: the access token stops working at once and open device codes are voided. */
export async function revokeAgent(deps: Deps, caller: Caller, rawId: string): Promise<Agent> {
  return deps.db.transaction(async (tx) => {
    const row = await findAgentOrThrow(tx, caller, rawId, true);
    if (row.status === "REVOKED")
      throw new ApiError("CONFLICT", { reason: `Agent ${row.id} is already revoked.` });
    const now = nowFor(deps, caller);
    await store.voidDeviceCodes(tx, row.id, now);
    return toAgent(await store.updateAgent(tx, row.id, { status: "REVOKED", revoked_at: now, now }));
  });
}

/** `POST /agents/{id}/device-codes`: a new code; redeeming it replaces the agent's access token. */
export async function createDeviceCode(deps: Deps, caller: Caller, rawId: string): Promise<DeviceCode> {
  return deps.db.transaction(async (tx) => {
    const row = await findAgentOrThrow(tx, caller, rawId, true);
    if (row.status === "REVOKED") throw revokedConflict(row);
    return issueDeviceCode(tx, row.id, nowFor(deps, caller));
  });
}

/**
 * `PATCH /agents/{id}/policy`: the fields given replace the current policy's, the rest stay; checked like
 * a new policy (`400 INVALID_INPUT`). Payments already waiting keep their approval state.
 */
export async function updateAgentPolicy(
  deps: Deps,
  caller: Caller,
  rawId: string,
  body: UpdatePolicyBody,
): Promise<Agent> {
  return deps.db.transaction(async (tx) => {
    const row = await findAgentOrThrow(tx, caller, rawId, true);
    if (row.status === "REVOKED") throw revokedConflict(row);
    const policy = checkPolicy(
      {
        allowedOperations: body.allowedOperations ?? row.policy.allowedOperations,
        maxTransactionAmounts: body.maxTransactionAmounts ?? row.policy.maxTransactionAmounts,
        requirePlatformApproval: body.requirePlatformApproval ?? row.policy.requirePlatformApproval,
      },
      "",
    );
    return toAgent(await store.updateAgent(tx, row.id, { policy, now: nowFor(deps, caller) }));
  });
}
