import type { Tx } from "../core/db/db.js";
import type { Caller } from "../core/http/context.js";
import { sandboxSuffix } from "../core/ids.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import { expectedSettlement } from "../rails/rails.js";
import { enqueueEvent } from "../webhooks/outbox.js";
import type { BankValidation } from "./schemas.js";
import * as store from "./store.js";
import { toExternalAccount } from "./wire.js";

/** The job that closes an account's return window (registered in src/jobs.ts). */
export const BANK_VALIDATION_WINDOW_JOB = "external-accounts.bank-validation-window";

/** Banking days after the micro-entries settle during which the receiving bank may return them. */
export const RETURN_WINDOW_BANKING_DAYS = 2;

/** The NACHA return code of the sandbox's failed validation (suffix 009): no account / unable to locate. */
const SANDBOX_RETURN_CODE = "R03";

/**
 * When the return window of micro-entries sent at `sentAt` closes: they settle like an ACH payout (17:00
 * Chicago the next business day), and the window ends 17:00 Chicago `RETURN_WINDOW_BANKING_DAYS`
 * business days later, on the business-day calendar of rails/rails.ts.
 */
export function returnWindowEnd(sentAt: Date): Date {
  let end = expectedSettlement("ACH", sentAt);
  for (let day = 0; day < RETURN_WINDOW_BANKING_DAYS; day++) end = expectedSettlement("ACH", end);
  return end;
}

/**
 * How a new USD account is validated (conventions §4.1, docs/decisions/bank-validation-invitations.md).
 * Production: micro-entries, ACTIVE when the window closes. Sandbox by `accountNumber` suffix: `008`
 * micro-entries, ACTIVE when the window closes; `009` micro-entries returned at once, INACTIVE; any other
 * suffix validates at once (ACTIVE), as before micro-entries existed.
 */
function plan(caller: Caller, accountNumber: string): "MICRO_ENTRIES" | "RETURNED" | "INSTANT" {
  if (caller.environment !== "SANDBOX") return "MICRO_ENTRIES";
  const suffix = sandboxSuffix(accountNumber);
  return suffix === "008" ? "MICRO_ENTRIES" : suffix === "009" ? "RETURNED" : "INSTANT";
}

async function announce(tx: Tx, row: store.ExternalAccountRow, now: Date): Promise<void> {
  await enqueueEvent(tx, {
    platformId: row.platform_id,
    type: "EXTERNAL_ACCOUNT.STATUS_UPDATED",
    data: toExternalAccount(row),
    now,
  });
}

/**
 * Starts validating a USD account just inserted as PENDING, in the create's transaction: sends the
 * micro-entries and schedules the window's close, or (sandbox) settles the outcome at once. Every status
 * change fires EXTERNAL_ACCOUNT.STATUS_UPDATED in the same transaction.
 */
export async function startBankValidation(
  tx: Tx,
  caller: Caller,
  row: store.ExternalAccountRow,
  accountNumber: string,
  now: Date,
): Promise<store.ExternalAccountRow> {
  const how = plan(caller, accountNumber);
  if (how === "INSTANT") {
    const validated = await store.setBankValidation(tx, row.id, "ACTIVE", null, now);
    await announce(tx, validated, now);
    return validated;
  }
  const sent: BankValidation = {
    method: "MICRO_ENTRIES",
    status: "PENDING",
    microEntriesSentAt: now.toISOString(),
    returnWindowEndsAt: returnWindowEnd(now).toISOString(),
  };
  if (how === "RETURNED") {
    const failed: BankValidation = {
      ...sent,
      status: "FAILED",
      completedAt: now.toISOString(),
      returnCode: SANDBOX_RETURN_CODE,
    };
    const inactive = await store.setBankValidation(tx, row.id, "INACTIVE", failed, now);
    await announce(tx, inactive, now);
    return inactive;
  }
  await scheduleJob(tx, {
    platformId: row.platform_id,
    kind: BANK_VALIDATION_WINDOW_JOB,
    payload: { externalAccountId: row.id },
    runAt: new Date(sent.returnWindowEndsAt),
    now,
  });
  return store.setBankValidation(tx, row.id, "PENDING", sent, now);
}

/**
 * Validates a bank account of any type but USD_ACCOUNT, just inserted as PENDING, in the create's
 * transaction (docs/decisions-corridor-accounts.md). Micro-entries are an ACH mechanism, so no
 * `bankValidation` is kept: production accepts the account at once (ACTIVE); the sandbox bank answers by
 * the last three characters of the account's number (bank-accounts/spec.ts sandboxNumber), as for USD:
 * `008` stays PENDING (payouts: `409 BANK_ACCOUNT_VALIDATION_PENDING`), `009` does not exist at the bank
 * (INACTIVE; payouts: `400 INVALID_BANK_ACCOUNT`), any other suffix is ACTIVE at once. Every status change
 * fires EXTERNAL_ACCOUNT.STATUS_UPDATED.
 */
export async function startSuffixValidation(
  tx: Tx,
  caller: Caller,
  row: store.ExternalAccountRow,
  number: string,
  now: Date,
): Promise<store.ExternalAccountRow> {
  const suffix = caller.environment === "SANDBOX" ? sandboxSuffix(number) : "";
  if (suffix === "008") return row;
  const status = suffix === "009" ? "INACTIVE" : "ACTIVE";
  const validated = await store.setBankValidation(tx, row.id, status, null, now);
  await announce(tx, validated, now);
  return validated;
}

/**
 * The return window closed with nothing returned: PENDING → ACTIVE (bankValidation SUCCEEDED) with
 * EXTERNAL_ACCOUNT.STATUS_UPDATED. A deleted account, or one no longer pending, is left as it is, so a
 * job that runs twice changes nothing. The caller holds the account's row lock.
 */
export async function closeReturnWindow(tx: Tx, row: store.ExternalAccountRow, now: Date): Promise<void> {
  const validation = row.bank_validation;
  if (row.status !== "PENDING" || validation?.status !== "PENDING") return;
  const succeeded: BankValidation = { ...validation, status: "SUCCEEDED", completedAt: now.toISOString() };
  const active = await store.setBankValidation(tx, row.id, "ACTIVE", succeeded, now);
  await announce(tx, active, now);
}
