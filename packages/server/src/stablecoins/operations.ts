import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { newId } from "../core/ids.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import { postBalanceChanges } from "../ledger/ledger.js";
import { insertPayment } from "../payments/lifecycle.js";
import type { TransactionRow } from "../payments/store.js";
import { externalBurnTarget } from "./burn-payout.js";
import {
  checkAmountShape,
  checkBurnSource,
  checkOperable,
  fiatAccount,
  internalFundingAccount,
} from "./gates.js";
import { mintDestination } from "./mint-destination.js";
import { type OperationContext, toOperation } from "./operation-reads.js";
import * as store from "./operation-store.js";
import { selectProviderAccount } from "./provider-accounts.js";
import type { BurnBody, MintBody, StablecoinOperation, StablecoinOperationType } from "./schemas.js";
import { findStablecoinOrThrow } from "./stablecoins.js";
import type { StablecoinRow } from "./store.js";

/** The job kind that settles a PROCESSING operation (registered in src/jobs.ts). */
export const SETTLE_OPERATION_JOB = "stablecoins.settle-operation";
/** How long the sandbox provider takes to settle a mint or burn, on the platform clock. */
export const SETTLEMENT_DELAY_MS = 30_000;

function newOperation(
  caller: Caller,
  coin: StablecoinRow,
  type: StablecoinOperationType,
  parts: {
    id: string;
    amount: number;
    accountId: string;
    providerAccountId: string;
    transactionId: string;
    description: string | undefined;
    now: Date;
  },
): store.OperationRow {
  return {
    id: parts.id,
    platform_id: caller.platformId,
    stablecoin_id: coin.id,
    type,
    status: "PROCESSING",
    amount: parts.amount,
    currency: coin.backing_currency,
    account_id: parts.accountId,
    provider_account_id: parts.providerAccountId,
    transaction_id: parts.transactionId,
    destination_account_id: null,
    destination_rail: null,
    failure_reason: null,
    description: parts.description ?? null,
    completed_at: null,
    created_at: parts.now,
    updated_at: parts.now,
  };
}

function fiatTransaction(
  caller: Caller,
  account: InternalAccountRow,
  leg: { type: "INCOMING" | "OUTGOING"; status: string; amount: number; now: Date },
  ends: { source: Record<string, unknown>; destination: Record<string, unknown>; description: string },
): TransactionRow {
  return {
    id: newId("Transaction"),
    platform_id: caller.platformId,
    type: leg.type,
    status: leg.status,
    account_id: account.id,
    customer_id: account.customer_id,
    currency: account.currency,
    sent_amount: leg.amount,
    received_amount: leg.amount,
    fees: 0,
    platform_fees: 0,
    quote_id: null,
    payment_rail: null,
    rail_selection_mode: null,
    failure_reason: null,
    pending_reason: null,
    description: ends.description,
    reference: null,
    source: ends.source,
    destination: ends.destination,
    details: {},
    settled_at: null,
    created_at: leg.now,
    updated_at: leg.now,
  };
}

/**
 * `POST /stablecoins/{id}/mints`: debits the source account now (through the ledger, so an uncovered
 * amount is `400 INSUFFICIENT_FUNDS` and nothing is written) and leaves the mint PROCESSING until the
 * provider settles it; the minted tokens go to the destination wallet or the provider account's treasury.
 */
export async function mint(
  deps: Deps,
  caller: Caller,
  rawStablecoinId: string,
  input: MintBody,
): Promise<StablecoinOperation> {
  checkAmountShape(input.amount);
  const now = nowFor(deps, caller);
  return deps.db.transaction(async (tx) => {
    const coin = await findStablecoinOrThrow(tx, caller, rawStablecoinId);
    const amount = checkOperable(coin, "MINT", input.amount);
    const { provider, walletId } = await mintDestination(tx, caller, input, coin);
    const accountId = internalFundingAccount(input.fundingSource);
    const account = await fiatAccount(tx, caller, "fundingSource.accountId", accountId, coin);
    const operationId = newId("StablecoinOperation");
    const transaction = fiatTransaction(
      caller,
      account,
      { type: "OUTGOING", status: "PROCESSING", amount, now },
      {
        source: { sourceType: "ACCOUNT", accountId: account.id },
        destination: { destinationType: "STABLECOIN_MINT", stablecoinId: coin.id, operationId },
        description: `Mint ${coin.symbol}`,
      },
    );
    await postBalanceChanges(tx, {
      platformId: caller.platformId,
      now,
      postings: [{ accountId: account.id, amount: -amount, transactionId: transaction.id }],
    });
    await insertPayment(tx, transaction);
    const parts = {
      amount,
      accountId: account.id,
      providerAccountId: provider.id,
      description: input.description,
      now,
    };
    const operation = newOperation(caller, coin, "MINT", {
      ...parts,
      id: operationId,
      transactionId: transaction.id,
    });
    return accept(
      tx,
      { ...operation, destination_account_id: walletId ?? null },
      { tokenDecimals: coin.decimals, provider: provider.provider, environment: caller.environment },
    );
  });
}

/**
 * `POST /stablecoins/{id}/burns`: takes the tokens from the provider account's treasury holding now
 * (none ever held → `STABLECOIN_BURN_SOURCE_NOT_SUPPORTED`, too few → `INSUFFICIENT_FUNDS`); the
 * redeemed money is credited to the destination account when the burn completes (an external account's
 * owner's account, then paid out: burn-payout.ts).
 */
export async function burn(
  deps: Deps,
  caller: Caller,
  rawStablecoinId: string,
  input: BurnBody,
): Promise<StablecoinOperation> {
  checkAmountShape(input.amount);
  const now = nowFor(deps, caller);
  return deps.db.transaction(async (tx) => {
    const coin = await findStablecoinOrThrow(tx, caller, rawStablecoinId);
    const amount = checkOperable(coin, "BURN", input.amount);
    const provider = await selectProviderAccount(tx, caller, input.stablecoinProviderAccountId, coin.network);
    const { destination } = input;
    // An external account's money is credited to its owner's account first, then paid out (burn-payout.ts).
    const target =
      destination.type === "EXTERNAL_ACCOUNT"
        ? await externalBurnTarget(tx, caller, destination, coin)
        : {
            account: await fiatAccount(tx, caller, "destination.accountId", destination.accountId, coin),
            externalId: null,
            rail: null,
          };
    const { account } = target;
    checkBurnSource(input.source);
    const held = await store.lockHolding(tx, provider.id, coin.id);
    if (held === undefined) {
      throw new ApiError("STABLECOIN_BURN_SOURCE_NOT_SUPPORTED", {
        reason: `Provider account ${provider.id} never held ${coin.symbol}, so it cannot be a burn source for it.`,
      });
    }
    if (held < amount) {
      throw new ApiError("INSUFFICIENT_FUNDS", {
        reason: `Provider account ${provider.id} holds ${held} of ${coin.symbol}; ${amount} needed.`,
      });
    }
    const holding = { platformId: caller.platformId, providerAccountId: provider.id, stablecoinId: coin.id };
    await store.addToHolding(tx, holding, -amount, now);
    const operationId = newId("StablecoinOperation");
    const transaction = fiatTransaction(
      caller,
      account,
      { type: "INCOMING", status: "PENDING", amount, now },
      {
        source: { sourceType: "STABLECOIN_BURN", stablecoinId: coin.id, operationId },
        destination: { destinationType: "ACCOUNT", accountId: account.id },
        description: `Burn ${coin.symbol}`,
      },
    );
    await insertPayment(tx, transaction);
    const parts = {
      amount,
      accountId: account.id,
      providerAccountId: provider.id,
      description: input.description,
      now,
    };
    const operation = newOperation(caller, coin, "BURN", {
      ...parts,
      id: operationId,
      transactionId: transaction.id,
    });
    return accept(
      tx,
      {
        ...operation,
        destination_account_id: target.externalId,
        destination_rail: target.rail,
      },
      { tokenDecimals: coin.decimals, provider: provider.provider, environment: caller.environment },
    );
  });
}

/** Records an accepted operation and schedules its settlement on the platform clock. */
async function accept(
  tx: Tx,
  operation: store.OperationRow,
  context: OperationContext,
): Promise<StablecoinOperation> {
  await store.insertOperation(tx, operation);
  await scheduleJob(tx, {
    platformId: operation.platform_id,
    kind: SETTLE_OPERATION_JOB,
    payload: { operationId: operation.id },
    runAt: new Date(operation.created_at.getTime() + SETTLEMENT_DELAY_MS),
    now: operation.created_at,
  });
  return toOperation(operation, context);
}
