import type { Tx } from "../core/db/db.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import type { JobHandler } from "../core/jobs/jobs.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import {
  findStandardAccount,
  type InternalAccountRow,
  listPlatformAccounts,
} from "../customers/accounts-store.js";
import { requireEndUserTerms } from "../customers/end-user-terms.js";
import { walletAccountTypes } from "../external-accounts/schemas.js";
import { findExternalAccount } from "../external-accounts/store.js";
import { executeQuote } from "../payments/execute.js";
import { jobNow } from "../platform/clock.js";
import { findPlatform } from "../platform/store.js";
import { dailyVolumeGate } from "../quotes/daily-volume.js";
import { newPayoutQuoteRow, requireValidated } from "../quotes/payouts.js";
import { checkQuoteRequest } from "../quotes/request.js";
import { insertQuote } from "../quotes/store.js";
import { endUserTermsGate } from "../quotes/terms-gate.js";
import { usableRails } from "../rails/account-rails.js";
import type { PaymentRail } from "../rails/payment-rails.js";
import * as store from "./operation-store.js";
import type { burnRails } from "./schemas.js";
import type { StablecoinRow } from "./store.js";

/** The job kind that pays a completed burn's money out to its external account (registered in src/jobs.ts). */
export const PAY_OUT_BURN_JOB = "stablecoins.pay-out-burn";

/** The hosted StablecoinBurnDestination rails as our PaymentRail (docs/decisions.md "Burn payouts"). */
export const burnRailOf: Readonly<Record<(typeof burnRails)[number], PaymentRail>> = {
  WIRE: "WIRE",
  ACH_CREDIT: "ACH",
  SAME_DAY_ACH_CREDIT: "ACH_SAME_DAY",
  RTP_CREDIT: "RTP",
};
const hostedRailOf = new Map(Object.entries(burnRailOf).map(([hosted, ours]) => [ours, hosted]));

/** The hosted rail of a stored one, for the answer's `destination.rail`. */
export function hostedBurnRail(rail: string): (typeof burnRails)[number] {
  return hostedRailOf.get(rail as PaymentRail) as (typeof burnRails)[number];
}

export interface ExternalBurnTarget {
  /** The owner's internal account in the backing currency: credited when the burn completes, then paid out of. */
  account: InternalAccountRow;
  externalId: string;
  rail: PaymentRail;
}

/** The owner's own account in `currency`: a customer's STANDARD fiat account, or the platform's first one. */
async function ownerAccount(tx: Tx, platformId: string, customerId: string | null, currency: string) {
  if (customerId !== null) return findStandardAccount(tx, customerId, currency);
  const [first] = await listPlatformAccounts(tx, platformId, { currency, type: "INTERNAL_FIAT" });
  return first;
}

/**
 * The hosted `EXTERNAL_ACCOUNT` burn destination, checked as a payout's is when the burn is requested: a bank
 * account of the platform or one of its customers (unknown → `404 ACCOUNT_NOT_FOUND`) in the backing currency
 * (a wallet or another currency → `400 STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED`) that `rail` can pay (else
 * `400` on `destination.rail`), validated (`409 BANK_ACCOUNT_VALIDATION_PENDING`, `400 INVALID_BANK_ACCOUNT`),
 * whose owner has an ACTIVE internal account in that currency (else `409 CONFLICT`) and the end-user terms.
 */
export async function externalBurnTarget(
  tx: Tx,
  caller: Caller,
  destination: { externalAccountId: string; rail: (typeof burnRails)[number] },
  coin: StablecoinRow,
): Promise<ExternalBurnTarget> {
  const rawId = destination.externalAccountId;
  const id = parseId("ExternalAccount", rawId);
  const external = id ? await findExternalAccount(tx, caller.platformId, id) : undefined;
  if (!external) throw new ApiError("ACCOUNT_NOT_FOUND", { reason: `No external account ${rawId}.` });
  const isWallet = (walletAccountTypes as readonly string[]).includes(external.account_type);
  if (isWallet || external.currency !== coin.backing_currency)
    throw new ApiError("STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED", {
      reason: `A burn of ${coin.symbol} pays ${coin.backing_currency} to a bank account in it, not to a ${external.currency} ${external.account_type}.`,
    });
  const rail = burnRailOf[destination.rail];
  const rails = usableRails(external.currency, {
    ...external.account_info,
    accountType: external.account_type,
  });
  if (!rails.includes(rail))
    throw invalidField("destination.rail", `external account ${external.id} cannot be paid over ${rail}`);
  requireValidated(external);
  const account = await ownerAccount(tx, caller.platformId, external.customer_id, coin.backing_currency);
  if (account?.status !== "ACTIVE")
    throw new ApiError("CONFLICT", {
      reason: `The owner of ${external.id} has no ACTIVE ${coin.backing_currency} internal account to receive the redeemed money.`,
    });
  await requireEndUserTerms(tx, [account.customer_id]);
  return { account, externalId: external.id, rail };
}

/** Called when a burn to an external account completes: its payout runs next, in a transaction of its own. */
export async function schedulePayout(tx: Tx, operation: store.OperationRow, now: Date): Promise<void> {
  await scheduleJob(tx, {
    platformId: operation.platform_id,
    kind: PAY_OUT_BURN_JOB,
    payload: { operationId: operation.id },
    runAt: now,
    now,
  });
}

/**
 * Pays a completed burn's money out of the internal account it was credited to: a payout quote to the
 * external account over the burn's rail, executed as `POST /transfer-out` executes one, with the gates that
 * apply without a customer present (end-user terms, the daily volume limit; no SCA: the platform redeemed
 * its own tokens). A refused payout leaves the money in the internal account and the burn COMPLETED.
 */
const payOutBurn: JobHandler = async (context) => {
  const { deps, job } = context;
  try {
    await deps.db.transaction(async (tx) => {
      const operation = await store.findOperation(tx, job.platformId, String(job.payload.operationId), true);
      const platform = await findPlatform(tx, job.platformId);
      if (operation?.destination_rail && platform) {
        const caller: Caller = {
          platformId: platform.id,
          tokenId: `job:${job.id}`,
          permissions: ["MANAGE"],
          environment: platform.environment,
          clockOffsetMs: platform.clock_offset_ms,
        };
        const now = await jobNow(tx, context);
        const request = checkQuoteRequest({
          source: { sourceType: "ACCOUNT", accountId: operation.account_id },
          destination: {
            destinationType: "ACCOUNT",
            accountId: operation.destination_account_id as string,
            paymentRail: operation.destination_rail,
          },
          lockedCurrencySide: "SENDING",
          lockedCurrencyAmount: operation.amount,
          immediatelyExecute: true,
          description: `Burn ${operation.id} payout`,
        } as Parameters<typeof checkQuoteRequest>[0]);
        const quote = await newPayoutQuoteRow(tx, caller, request, platform.fee_configs, now);
        await insertQuote(tx, quote);
        await executeQuote(tx, { deps, caller, now, gates: [endUserTermsGate, dailyVolumeGate] }, quote);
      }
      await context.finish(tx);
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    deps.logger.warn({ err: error, operationId: job.payload.operationId }, "burn payout refused");
    await deps.db.transaction((tx) => context.finish(tx));
  }
};

export function burnPayoutJobHandlers(): Record<string, JobHandler> {
  return { [PAY_OUT_BURN_JOB]: payOutBurn };
}
