import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { PageRequest, PageResult } from "../core/http/pagination.js";
import { parseId } from "../core/ids.js";
import { money } from "../core/money.js";
import * as store from "./operation-store.js";
import type { StablecoinOperation } from "./schemas.js";
import { findStablecoinOrThrow } from "./stablecoins.js";

export function toOperation(row: store.OperationRow): StablecoinOperation {
  const wire: StablecoinOperation = {
    id: row.id,
    stablecoinId: row.stablecoin_id,
    type: row.type,
    status: row.status,
    amount: money(row.amount, row.currency),
    accountId: row.account_id,
    stablecoinProviderAccountId: row.provider_account_id,
    transactionId: row.transaction_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.failure_reason) wire.failureReason = row.failure_reason as "PROVIDER_REJECTED";
  if (row.completed_at) wire.completedAt = row.completed_at.toISOString();
  return wire;
}

/** Reads one operation of a stablecoin; an operation of another stablecoin or platform is `404`. */
export async function getOperation(
  deps: Deps,
  caller: Caller,
  rawStablecoinId: string,
  rawOperationId: string,
): Promise<StablecoinOperation> {
  const coin = await findStablecoinOrThrow(deps.db, caller, rawStablecoinId);
  const id = parseId("StablecoinOperation", rawOperationId);
  const row = id ? await store.findOperation(deps.db, caller.platformId, id) : undefined;
  if (!row || row.stablecoin_id !== coin.id) {
    throw new ApiError("STABLECOIN_OPERATION_NOT_FOUND", {
      reason: `Stablecoin ${coin.id} has no operation ${rawOperationId}.`,
    });
  }
  return toOperation(row);
}

export async function listOperations(
  deps: Deps,
  caller: Caller,
  rawStablecoinId: string,
  filters: { type?: string | undefined; status?: string | undefined },
  page: PageRequest,
): Promise<PageResult<StablecoinOperation>> {
  const coin = await findStablecoinOrThrow(deps.db, caller, rawStablecoinId);
  const result = await store.listOperations(deps.db, caller.platformId, coin.id, filters, page);
  return { ...result, data: result.data.map(toOperation) };
}
