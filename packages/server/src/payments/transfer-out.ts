import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { sandboxSuffix } from "../core/ids.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import { findPlatform } from "../platform/store.js";
import type { ExecutionGate } from "../quotes/execution-gate.js";
import { newPayoutQuoteRow, payoutDestination } from "../quotes/payouts.js";
import { checkQuoteRequest } from "../quotes/request.js";
import { insertQuote } from "../quotes/store.js";
import { executeQuote } from "./execute.js";
import type { OutcomePlan } from "./execution-context.js";
import { PAYOUT_SETTLE } from "./payout-jobs.js";
import { findTransaction } from "./store.js";
import { TRANSFER_RETURN_AFTER_MS } from "./transfer-jobs.js";
import type { TransferOutBody } from "./transfer-schemas.js";
import { type Transaction, toTransaction } from "./wire.js";

/** The "/transfer-in, /transfer-out" column of conventions §3.6 for a transfer-out. */
const transferOutcome: OutcomePlan = (suffix, transactionId, now, expected) => {
  if (suffix === "003") return { failNow: "ACCOUNT_INVALID" };
  if (suffix === "004") return { failNow: "COMPLIANCE_REJECTED" };
  const payload = { transactionId, ...(suffix === "005" ? { returnAfterMs: TRANSFER_RETURN_AFTER_MS } : {}) };
  return { kind: PAYOUT_SETTLE, runAt: suffix === "005" ? now : expected, payload };
};

/**
 * `POST /transfer-out` (deprecated): an immediately executed payout quote under the hood, so the
 * rules, fees, rails and settlement are those of `POST /quotes` (docs/decisions.md "Payouts"); the
 * answer is the OUTGOING transaction. Sandbox suffix 002 is `400 INSUFFICIENT_FUNDS` with nothing created.
 */
export async function transferOut(
  deps: Deps,
  caller: Caller,
  body: TransferOutBody,
  gates: readonly ExecutionGate[],
): Promise<Transaction> {
  const request = checkQuoteRequest({
    source: { sourceType: "ACCOUNT", accountId: body.source.accountId },
    destination: { destinationType: "ACCOUNT", ...body.destination },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: body.amount,
    immediatelyExecute: true,
    ...(body.remittanceInformation ? { remittanceInformation: body.remittanceInformation } : {}),
    ...(body.purposeOfPayment ? { purposeOfPayment: body.purposeOfPayment } : {}),
  });
  return deps.db.transaction(async (tx) => {
    const now = nowFor(deps, caller);
    const source = await findAccountOrThrow(tx, caller, body.source.accountId);
    const external = await payoutDestination(tx, caller, source, body.destination.accountId);
    if (
      caller.environment === "SANDBOX" &&
      sandboxSuffix(String(external.account_info.accountNumber)) === "002"
    )
      throw new ApiError("INSUFFICIENT_FUNDS", {
        reason: `Account ${source.id} cannot fund this transfer (sandbox 002).`,
      });
    const platform = await findPlatform(tx, caller.platformId);
    if (!platform) throw new ApiError("PLATFORM_NOT_FOUND");
    const quote = await newPayoutQuoteRow(tx, caller, request, platform.fee_configs, now);
    await insertQuote(tx, quote);
    // An execution like any other: SCA and the daily volume limit answer before money moves.
    const executed = await executeQuote(tx, { deps, caller, now, gates }, quote, {
      outcome: transferOutcome,
    });
    const row = await findTransaction(tx, caller.platformId, executed.transaction_id as string);
    if (!row) throw new Error(`transaction ${executed.transaction_id} vanished`);
    return toTransaction(row);
  });
}
