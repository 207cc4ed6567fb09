import type { Executor } from "../core/db/db.js";
import { isUniqueViolation } from "../core/db/sqlstate.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { PageRequest, PageResult } from "../core/http/pagination.js";
import { newId, parseId } from "../core/ids.js";
import { addressProblem, walletIdentity } from "../external-accounts/wallets/addresses.js";
import type { EnablementStatus, RegisterStablecoinBody, Stablecoin } from "./schemas.js";
import * as store from "./store.js";

export function toStablecoin(row: store.StablecoinRow): Stablecoin {
  return {
    id: row.id,
    symbol: row.symbol,
    name: row.name,
    network: row.network,
    tokenIdentifier: row.token_identifier,
    decimals: row.decimals,
    backingCurrency: row.backing_currency,
    supportedOperations: row.supported_operations,
    enablementStatus: row.enablement_status,
    provisioned: row.provisioned,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Reads a stablecoin of the caller's platform; malformed, foreign or unknown ids are `404 STABLECOIN_NOT_FOUND`. */
export async function findStablecoinOrThrow(
  db: Executor,
  caller: Caller,
  rawId: string,
  lock = false,
): Promise<store.StablecoinRow> {
  const id = parseId("Stablecoin", rawId);
  const row = id ? await store.findStablecoin(db, caller.platformId, id, lock) : undefined;
  if (!row) throw new ApiError("STABLECOIN_NOT_FOUND", { reason: `No stablecoin ${rawId}.` });
  return row;
}

/**
 * `POST /stablecoins`: symbol and token are unique per platform. The unique indexes decide concurrent
 * registrations, so exactly one of two racing requests wins and the other gets the 409.
 */
export async function registerStablecoin(
  deps: Deps,
  caller: Caller,
  input: RegisterStablecoinBody,
): Promise<Stablecoin> {
  const walletType = `${input.network}_WALLET` as const;
  const problem = addressProblem(walletType, input.tokenIdentifier);
  if (problem) throw invalidField("tokenIdentifier", `${problem} (a ${input.network} token address)`);
  const now = nowFor(deps, caller);
  const row: store.StablecoinRow = {
    id: newId("Stablecoin"),
    platform_id: caller.platformId,
    symbol: input.symbol,
    name: input.name,
    network: input.network,
    token_identifier: input.tokenIdentifier,
    token_identity: walletIdentity(walletType, input.tokenIdentifier),
    decimals: input.decimals,
    backing_currency: input.backingCurrency ?? "USD",
    supported_operations: input.supportedOperations ?? ["MINT", "BURN"],
    enablement_status: "NOT_ENABLED",
    provisioned: false,
    created_at: now,
    updated_at: now,
  };
  try {
    await deps.db.transaction((tx) => store.insertStablecoin(tx, row));
  } catch (error) {
    if (isUniqueViolation(error, store.stablecoinConstraints.symbol)) {
      throw new ApiError("STABLECOIN_SYMBOL_ALREADY_EXISTS", {
        reason: `This platform already registered a stablecoin with symbol ${input.symbol}.`,
        cause: error,
      });
    }
    if (isUniqueViolation(error, store.stablecoinConstraints.token)) {
      throw new ApiError("STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS", {
        reason: `This platform already registered token ${input.tokenIdentifier} on ${input.network}.`,
        cause: error,
      });
    }
    throw error;
  }
  return toStablecoin(row);
}

export async function getStablecoin(deps: Deps, caller: Caller, rawId: string): Promise<Stablecoin> {
  return toStablecoin(await findStablecoinOrThrow(deps.db, caller, rawId));
}

export async function listStablecoins(
  deps: Deps,
  caller: Caller,
  page: PageRequest,
): Promise<PageResult<Stablecoin>> {
  const result = await store.listStablecoins(deps.db, caller.platformId, page);
  return { ...result, data: result.data.map(toStablecoin) };
}

/**
 * Request enablement (interface "Stablecoin enablement"): NOT_ENABLED → PENDING_APPROVAL; a repeat from
 * PENDING_APPROVAL succeeds unchanged; ENABLING, ENABLED and DISABLED belong to the operator (409).
 */
export async function requestEnablement(deps: Deps, caller: Caller, rawId: string): Promise<Stablecoin> {
  return deps.db.transaction(async (tx) => {
    const row = await findStablecoinOrThrow(tx, caller, rawId, true);
    if (row.enablement_status === "PENDING_APPROVAL") return toStablecoin(row);
    if (row.enablement_status !== "NOT_ENABLED") {
      throw new ApiError("STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE", {
        reason: `Stablecoin ${row.id} is ${row.enablement_status}; enablement can be requested only from NOT_ENABLED.`,
      });
    }
    const updated = await store.updateStablecoinState(tx, row.id, {
      enablement_status: "PENDING_APPROVAL",
      provisioned: row.provisioned,
      updated_at: nowFor(deps, caller),
    });
    return toStablecoin(updated);
  });
}

/** The transitions the service operator may make (docs/decisions/stablecoins.md). */
export const operatorTransitions: Record<EnablementStatus, readonly EnablementStatus[]> = {
  NOT_ENABLED: [],
  PENDING_APPROVAL: ["ENABLING", "NOT_ENABLED"],
  ENABLING: ["ENABLED", "DISABLED"],
  ENABLED: ["DISABLED"],
  DISABLED: ["ENABLING"],
};

/** Sandbox operator step: moves the enablement state along `operatorTransitions`, else `409 INVALID_STATE_TRANSITION`. */
export async function operatorSetEnablement(
  deps: Deps,
  caller: Caller,
  rawId: string,
  status: EnablementStatus,
): Promise<Stablecoin> {
  return deps.db.transaction(async (tx) => {
    const row = await findStablecoinOrThrow(tx, caller, rawId, true);
    if (!operatorTransitions[row.enablement_status].includes(status)) {
      const allowed = operatorTransitions[row.enablement_status];
      throw new ApiError("INVALID_STATE_TRANSITION", {
        reason: `The operator cannot move stablecoin ${row.id} from ${row.enablement_status} to ${status}; allowed: ${allowed.join(", ") || "none"}.`,
      });
    }
    const updated = await store.updateStablecoinState(tx, row.id, {
      enablement_status: status,
      provisioned: row.provisioned,
      updated_at: nowFor(deps, caller),
    });
    return toStablecoin(updated);
  });
}

/** Sandbox operator step: provisions the token for issuer operations; repeating it changes nothing. */
export async function provisionStablecoin(deps: Deps, caller: Caller, rawId: string): Promise<Stablecoin> {
  return deps.db.transaction(async (tx) => {
    const row = await findStablecoinOrThrow(tx, caller, rawId, true);
    if (row.provisioned) return toStablecoin(row);
    const updated = await store.updateStablecoinState(tx, row.id, {
      enablement_status: row.enablement_status,
      provisioned: true,
      updated_at: nowFor(deps, caller),
    });
    return toStablecoin(updated);
  });
}
