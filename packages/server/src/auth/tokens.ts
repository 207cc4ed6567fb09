import { randomBytes } from "node:crypto";
import type { Db } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import { constantTimeEqual, sha256Hex } from "../core/hash.js";
import { announceCallersChanged, callerCache, dropCallersAfterCommit } from "../core/http/caller-cache.js";
import type { Caller, Permission } from "../core/http/context.js";
import type { PageRequest, PageResult } from "../core/http/pagination.js";
import { newId, parseId } from "../core/ids.js";
import * as store from "./store.js";

export interface ApiToken {
  id: string;
  name: string;
  permissions: Permission[];
  clientId: string;
  createdAt: string;
  updatedAt: string;
}

export function toApiToken(row: store.TokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    permissions: row.permissions,
    clientId: row.client_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

// Secrets are 256-bit random values, so a single SHA-256 is a sound verifier: there is nothing to brute-force.
const hashSecret = (secret: string) => sha256Hex(secret);
const unknownClientHash = hashSecret("paysvc-unknown-client");

/** Creates a token inside the caller's transaction; the secret is returned once and stored only as a hash. */
export async function insertNewToken(
  tx: Parameters<typeof store.insertToken>[0],
  platformId: string,
  input: { name: string; permissions: Permission[] },
  now: Date,
): Promise<ApiToken & { clientSecret: string }> {
  const clientId = randomBytes(16).toString("hex");
  const clientSecret = randomBytes(32).toString("base64url");
  const row: store.TokenRow = {
    id: newId("Token"),
    platform_id: platformId,
    name: input.name,
    permissions: [...new Set(input.permissions)],
    client_id: clientId,
    secret_hash: hashSecret(clientSecret),
    created_at: now,
    updated_at: now,
  };
  await store.insertToken(tx, row);
  return { ...toApiToken(row), clientSecret };
}

/** `POST /tokens`. */
export function createToken(deps: Deps, caller: Caller, input: { name: string; permissions: Permission[] }) {
  return deps.db.transaction((tx) => insertNewToken(tx, caller.platformId, input, nowFor(deps, caller)));
}

/**
 * Resolves Basic credentials to a caller, comparing the secret hash in constant time. A caller resolved in
 * the last few seconds comes from the caller cache (core/http/caller-cache.ts) without a query.
 */
export async function authenticate(db: Db, clientId: string, secret: string): Promise<Caller | null> {
  const hash = hashSecret(secret);
  const cache = callerCache(db);
  const cached = cache.get(clientId, Date.now());
  if (cached) return constantTimeEqual(hash, cached.secretHash) ? cached.caller : null;
  const readAt = cache.startRead();
  const row = /^[0-9a-f]{32}$/.test(clientId) ? await store.findTokenByClientId(db, clientId) : undefined;
  const matches = constantTimeEqual(hash, row?.secret_hash ?? unknownClientHash);
  if (!row || !matches) return null;
  const caller: Caller = {
    platformId: row.platform_id,
    tokenId: row.id,
    permissions: row.permissions,
    environment: row.environment,
    clockOffsetMs: row.clock_offset_ms,
  };
  cache.set(clientId, row.secret_hash, caller, Date.now(), readAt);
  return caller;
}

export async function getToken(deps: Deps, caller: Caller, rawId: string): Promise<ApiToken> {
  const id = parseId("Token", rawId);
  const row = id ? await store.findToken(deps.db, caller.platformId, id) : undefined;
  if (!row) throw new ApiError("TOKEN_NOT_FOUND", { reason: `No API token ${rawId}.` });
  return toApiToken(row);
}

/** `GET /tokens` with the hosted API's filters (`name`, creation and update times). */
export async function listTokens(
  deps: Deps,
  caller: Caller,
  filters: store.TokenFilters,
  page: PageRequest,
): Promise<PageResult<ApiToken>> {
  const result = await store.listTokens(deps.db, caller.platformId, filters, page);
  return { ...result, data: result.data.map(toApiToken) };
}

export async function deleteToken(deps: Deps, caller: Caller, rawId: string): Promise<void> {
  const id = parseId("Token", rawId);
  const deleted = id
    ? await deps.db.transaction(async (tx) => {
        const gone = await store.deleteToken(tx, caller.platformId, id);
        if (gone) await announceCallersChanged(tx, caller.platformId);
        return gone;
      })
    : false;
  if (!deleted) throw new ApiError("TOKEN_NOT_FOUND", { reason: `No API token ${rawId}.` });
  dropCallersAfterCommit(deps.db, caller.platformId);
}
