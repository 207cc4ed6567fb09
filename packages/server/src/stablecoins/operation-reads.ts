import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller, Environment } from "../core/http/context.js";
import type { PageRequest, PageResult } from "../core/http/pagination.js";
import { parseId } from "../core/ids.js";
import { currency } from "../core/money.js";
import { hostedBurnRail } from "./burn-payout.js";
import * as store from "./operation-store.js";
import type { StablecoinOperation } from "./schemas.js";
import { findStablecoinOrThrow } from "./stablecoins.js";
import * as coinStore from "./store.js";

/** What an operation's wire shape needs beyond its row: the token's precision and the link's provider. */
export interface OperationContext {
  tokenDecimals: number;
  provider: string;
  environment: Environment;
}

/**
 * An amount in the backing currency's minor units as the token's smallest units, a decimal string built
 * from integers (BigInt), exact at any precision: 2,500 cents of a 6-decimal token is "25000000".
 * Stored amounts come from `minorUnitsOf` (gates.ts), so the division never truncates.
 */
export function tokenUnits(minorUnits: number, currencyDecimals: number, tokenDecimals: number): string {
  const gap = BigInt(Math.abs(tokenDecimals - currencyDecimals));
  const scale = 10n ** gap;
  const minor = BigInt(minorUnits);
  if (tokenDecimals >= currencyDecimals) return (minor * scale).toString();
  if (minor % scale !== 0n) throw new Error(`${minorUnits} is not a whole number of token units`);
  return (minor / scale).toString();
}

export function toOperation(row: store.OperationRow, context: OperationContext): StablecoinOperation {
  const wire: StablecoinOperation = {
    id: row.id,
    stablecoinId: row.stablecoin_id,
    operationType: row.type,
    status: row.status,
    amount: tokenUnits(row.amount, currency(row.currency).decimals, context.tokenDecimals),
    provider: context.provider as StablecoinOperation["provider"],
    providerEnvironment: context.environment,
    stablecoinProviderAccountId: row.provider_account_id,
    source:
      row.type === "MINT"
        ? { type: "GRID_INTERNAL_ACCOUNT", accountId: row.account_id }
        : { type: "PROVIDER_INTERNAL_BALANCE" },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  wire.destination =
    row.type === "MINT"
      ? { accountId: row.destination_account_id ?? row.provider_account_id }
      : row.destination_rail !== null
        ? { accountId: row.destination_account_id as string, rail: hostedBurnRail(row.destination_rail) }
        : { accountId: row.account_id };
  if (row.description !== null) wire.description = row.description;
  if (row.failure_reason) wire.failureReason = row.failure_reason as "PROVIDER_REJECTED";
  return wire;
}

/**
 * `GET /stablecoin-operations/{stablecoinOperationId}`: one operation of any of the platform's stablecoins.
 * A malformed id, an unknown one or another platform's is the same `404 STABLECOIN_OPERATION_NOT_FOUND`.
 */
export async function getOperation(
  deps: Deps,
  caller: Caller,
  rawOperationId: string,
): Promise<StablecoinOperation> {
  const id = parseId("StablecoinOperation", rawOperationId);
  const row = id ? await store.findOperation(deps.db, caller.platformId, id) : undefined;
  if (!row) {
    throw new ApiError("STABLECOIN_OPERATION_NOT_FOUND", {
      reason: `No stablecoin operation ${rawOperationId} exists for this platform.`,
    });
  }
  const [coin, link] = await Promise.all([
    coinStore.findStablecoin(deps.db, caller.platformId, row.stablecoin_id),
    coinStore.findProviderAccount(deps.db, caller.platformId, row.provider_account_id),
  ]);
  if (!coin || !link)
    throw new Error(`stablecoin operation ${row.id} lost its stablecoin or provider account`);
  return toOperation(row, {
    tokenDecimals: coin.decimals,
    provider: link.provider,
    environment: caller.environment,
  });
}

export async function listOperations(
  deps: Deps,
  caller: Caller,
  rawStablecoinId: string,
  filters: { operationType?: string | undefined; status?: string | undefined },
  page: PageRequest,
): Promise<PageResult<StablecoinOperation>> {
  const coin = await findStablecoinOrThrow(deps.db, caller, rawStablecoinId);
  const result = await store.listOperations(deps.db, caller.platformId, coin.id, filters, page);
  const links = await coinStore.providersOf(
    deps.db,
    caller.platformId,
    result.data.map((row) => row.provider_account_id),
  );
  const data = result.data.map((row) => {
    const provider = links.get(row.provider_account_id);
    if (!provider) throw new Error(`stablecoin operation ${row.id} lost its provider account`);
    return toOperation(row, { tokenDecimals: coin.decimals, provider, environment: caller.environment });
  });
  return { ...result, data };
}
