import type { Executor, Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { PageRequest, PageResult } from "../core/http/pagination.js";
import { newId, parseId } from "../core/ids.js";
import type { CreateProviderAccountBody, StablecoinProviderAccount } from "./schemas.js";
import * as store from "./store.js";

export function toProviderAccount(row: store.ProviderAccountRow): StablecoinProviderAccount {
  const wire: StablecoinProviderAccount = {
    id: row.id,
    provider: row.provider as StablecoinProviderAccount["provider"],
    accountReference: row.account_reference,
    networks: row.networks,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.revoked_at) wire.revokedAt = row.revoked_at.toISOString();
  return wire;
}

function notFound(rawId: string): ApiError {
  return new ApiError("STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND", {
    reason: `No stablecoin provider account ${rawId}.`,
  });
}

async function findProviderAccountOrThrow(
  db: Executor,
  caller: Caller,
  rawId: string,
  lock = false,
): Promise<store.ProviderAccountRow> {
  const id = parseId("StablecoinProviderAccount", rawId);
  const row = id ? await store.findProviderAccount(db, caller.platformId, id, lock) : undefined;
  if (!row) throw notFound(rawId);
  return row;
}

/** `POST /stablecoin-provider-accounts`: links one of the platform's accounts at an issuance provider. */
export async function createProviderAccount(
  deps: Deps,
  caller: Caller,
  input: CreateProviderAccountBody,
): Promise<StablecoinProviderAccount> {
  const now = nowFor(deps, caller);
  const row: store.ProviderAccountRow = {
    id: newId("StablecoinProviderAccount"),
    platform_id: caller.platformId,
    provider: input.provider,
    account_reference: input.accountReference,
    networks: input.networks,
    status: "ACTIVE",
    revoked_at: null,
    created_at: now,
    updated_at: now,
  };
  await deps.db.transaction((tx) => store.insertProviderAccount(tx, row));
  return toProviderAccount(row);
}

export async function getProviderAccount(
  deps: Deps,
  caller: Caller,
  rawId: string,
): Promise<StablecoinProviderAccount> {
  return toProviderAccount(await findProviderAccountOrThrow(deps.db, caller, rawId));
}

export async function listProviderAccounts(
  deps: Deps,
  caller: Caller,
  filters: { status?: string | undefined },
  page: PageRequest,
): Promise<PageResult<StablecoinProviderAccount>> {
  const result = await store.listProviderAccounts(deps.db, caller.platformId, filters, page);
  return { ...result, data: result.data.map(toProviderAccount) };
}

/** Revokes a link for good: later mints and burns naming it are `400 STABLECOIN_PROVIDER_ACCOUNT_REVOKED`. */
export async function revokeProviderAccount(
  deps: Deps,
  caller: Caller,
  rawId: string,
): Promise<StablecoinProviderAccount> {
  const id = parseId("StablecoinProviderAccount", rawId);
  const row = id
    ? await deps.db.transaction((tx) =>
        store.revokeProviderAccount(tx, caller.platformId, id, nowFor(deps, caller)),
      )
    : undefined;
  if (!row) throw notFound(rawId);
  return toProviderAccount(row);
}

/**
 * The provider account a mint or burn goes through, locked against a concurrent revoke: the one named,
 * else the platform's only ACTIVE one. It must be ACTIVE and issue on the stablecoin's network.
 */
export async function selectProviderAccount(
  tx: Tx,
  caller: Caller,
  rawId: string | undefined,
  network: string,
): Promise<store.ProviderAccountRow> {
  let account: store.ProviderAccountRow;
  if (rawId !== undefined) {
    account = await findProviderAccountOrThrow(tx, caller, rawId, true);
  } else {
    const active = await store.activeProviderAccounts(tx, caller.platformId);
    const [only] = active;
    if (!only) {
      throw invalidField(
        "stablecoinProviderAccountId",
        "is required: the platform has no ACTIVE stablecoin provider account to default to",
      );
    }
    if (active.length > 1) {
      throw new ApiError("STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED", {
        reason:
          "The platform has several ACTIVE stablecoin provider accounts; pass stablecoinProviderAccountId.",
      });
    }
    account = only;
  }
  if (account.status === "REVOKED") {
    throw new ApiError("STABLECOIN_PROVIDER_ACCOUNT_REVOKED", {
      reason: `Stablecoin provider account ${account.id} was revoked.`,
    });
  }
  if (!account.networks.includes(network as store.ProviderAccountRow["networks"][number])) {
    throw new ApiError("STABLECOIN_PROVIDER_ACCOUNT_INVALID", {
      reason: `Stablecoin provider account ${account.id} does not issue on ${network}.`,
    });
  }
  return account;
}
