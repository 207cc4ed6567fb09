import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { newId, sandboxSuffix } from "../core/ids.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import { requireEndUserTerms } from "../customers/end-user-terms.js";
import { type LockedAccounts, lockForPosting, postBalanceChanges } from "../ledger/ledger.js";
import { requireActive } from "../quotes/active.js";
import { payoutDestination, requireValidated } from "../quotes/payouts.js";
import { insertPayment } from "./lifecycle.js";
import type { TransactionRow } from "./store.js";
import { TRANSFER_IN_RETURN, TRANSFER_RETURN_AFTER_MS } from "./transfer-jobs.js";
import type { TransferInBody } from "./transfer-schemas.js";
import { type Transaction, toTransaction } from "./wire.js";

function incoming(
  caller: Caller,
  body: TransferInBody,
  customerId: string | null,
  now: Date,
): TransactionRow {
  return {
    id: newId("Transaction"),
    platform_id: caller.platformId,
    type: "INCOMING",
    status: "COMPLETED",
    account_id: body.destination.accountId,
    customer_id: customerId,
    currency: "USD",
    sent_amount: null,
    received_amount: body.amount,
    fees: 0,
    platform_fees: 0,
    quote_id: null,
    payment_rail: "ACH",
    rail_selection_mode: null,
    failure_reason: null,
    pending_reason: null,
    description: null,
    reference: null,
    source: { sourceType: "ACCOUNT", accountId: body.source.accountId },
    destination: { destinationType: "ACCOUNT", accountId: body.destination.accountId },
    details: {},
    settled_at: now,
    created_at: now,
    updated_at: now,
  };
}

async function record(tx: Tx, row: TransactionRow, locked: LockedAccounts, now: Date): Promise<Transaction> {
  if (row.status === "COMPLETED") {
    const posting = { accountId: row.account_id, amount: row.received_amount ?? 0, transactionId: row.id };
    await postBalanceChanges(tx, { platformId: row.platform_id, now, locked, postings: [posting] });
  }
  await insertPayment(tx, row);
  return toTransaction(row);
}

/**
 * `POST /transfer-in` (deprecated): pulls `amount` from the owner's USD bank account into an internal
 * account; the sandbox settles it at once (one INCOMING transaction, one balance change). By suffix
 * (conventions §3.6): 002 → `400 INSUFFICIENT_FUNDS`, nothing created; 003 FAILED ACCOUNT_INVALID and
 * 004 FAILED COMPLIANCE_REJECTED, no money moved; 005 settles, then is returned ~30 s later.
 */
export async function transferIn(deps: Deps, caller: Caller, body: TransferInBody): Promise<Transaction> {
  return deps.db.transaction((tx) => transferInWithin(tx, caller, body, nowFor(deps, caller)));
}

/**
 * `transferIn` inside the caller's transaction, so a caller recording something about the transfer (an
 * agent's action) commits with the money or not at all.
 */
export async function transferInWithin(
  tx: Tx,
  caller: Caller,
  body: TransferInBody,
  now: Date,
): Promise<Transaction> {
  const found = await findAccountOrThrow(tx, caller, body.destination.accountId);
  const external = await payoutDestination(tx, caller, found, body.source.accountId);
  requireValidated(external);
  const locked = await lockForPosting(tx, caller.platformId, [found.id]);
  const account = locked.get(found.id) ?? found;
  requireActive(account);
  await requireEndUserTerms(tx, [account.customer_id]);
  if (account.currency !== "USD")
    throw new ApiError("NOT_IMPLEMENTED", {
      reason: "Transfers in to non-USD accounts are not built yet.",
    });
  const suffix =
    caller.environment === "SANDBOX" ? sandboxSuffix(String(external.account_info.accountNumber)) : "";
  if (suffix === "002")
    throw new ApiError("INSUFFICIENT_FUNDS", {
      reason: `External account ${external.id} cannot fund this transfer (sandbox 002).`,
    });
  const failureReason =
    suffix === "003" ? "ACCOUNT_INVALID" : suffix === "004" ? "COMPLIANCE_REJECTED" : null;
  const base = incoming(
    caller,
    { ...body, destination: { accountId: account.id } },
    account.customer_id,
    now,
  );
  const row = failureReason
    ? { ...base, status: "FAILED", failure_reason: failureReason, settled_at: null }
    : base;
  if (suffix === "005") {
    const runAt = new Date(now.getTime() + TRANSFER_RETURN_AFTER_MS);
    await scheduleJob(tx, {
      platformId: caller.platformId,
      kind: TRANSFER_IN_RETURN,
      payload: { transactionId: row.id },
      runAt,
      now,
    });
  }
  return record(tx, row, locked, now);
}
