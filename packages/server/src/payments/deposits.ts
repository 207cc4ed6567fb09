import type { Tx } from "../core/db/db.js";
import { together } from "../core/db/scope.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { newId, parseId } from "../core/ids.js";
import {
  findAccountOrThrow,
  type InternalAccount,
  landingAccount,
  toInternalAccount,
} from "../customers/accounts.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import {
  type LockedAccounts,
  lockForPosting,
  lockReceivingForPosting,
  postBalanceChanges,
} from "../ledger/ledger.js";
import { insertPayment } from "./lifecycle.js";
import type { TransactionRow } from "./store.js";
import { type Transaction, toTransaction } from "./wire.js";

interface IncomingDeposit {
  amount: number;
  description: string | null;
  paymentRail: string | null;
  source: Record<string, unknown>;
  /** What else the row says (a funded quote's transaction id, quote, amounts sent and rate). */
  row?: Partial<TransactionRow>;
}

export type Receiving = InternalAccountRow & { via?: string; locked: LockedAccounts };

/**
 * The account that receives money sent to `rawAccountId` (a rule-based account's owner account), locked
 * for the posting, its status checked under the lock.
 */
export async function receivingAccount(tx: Tx, caller: Caller, rawAccountId: string): Promise<Receiving> {
  const id = parseId("InternalAccount", rawAccountId);
  const direct = id ? await lockReceivingForPosting(tx, caller.platformId, id) : undefined;
  const account = direct
    ? { ...(direct.get(id as string) as InternalAccountRow), locked: direct }
    : await viaOwner();
  async function viaOwner(): Promise<Receiving> {
    const addressed = await findAccountOrThrow(tx, caller, rawAccountId);
    const landing = await landingAccount(tx, addressed);
    const locked = await lockForPosting(tx, caller.platformId, [landing.id]);
    const row = locked.get(landing.id) as InternalAccountRow;
    return landing.id === addressed.id ? { ...row, locked } : { ...row, locked, via: addressed.id };
  }
  if (account.status === "CLOSED" || account.status === "FAILED") {
    throw new ApiError("CONFLICT", {
      reason: `Account ${account.id} is ${account.status} and cannot receive money.`,
    });
  }
  return account;
}

/**
 * An incoming deposit that settled: one COMPLETED INCOMING transaction and one balance change, with
 * INCOMING_PAYMENT.COMPLETED (and the ledger's INTERNAL_ACCOUNT.BALANCE_UPDATED), in the caller's transaction.
 */
export async function recordDeposit(
  tx: Tx,
  caller: Caller,
  account: Receiving,
  deposit: IncomingDeposit,
  now: Date,
): Promise<{ transaction: TransactionRow; account: InternalAccountRow }> {
  const { details: extraDetails, ...extra } = deposit.row ?? {};
  const row: TransactionRow = {
    id: newId("Transaction"),
    platform_id: caller.platformId,
    type: "INCOMING",
    status: "COMPLETED",
    account_id: account.id,
    customer_id: account.customer_id,
    currency: account.currency,
    sent_amount: deposit.amount,
    received_amount: deposit.amount,
    fees: 0,
    platform_fees: 0,
    quote_id: null,
    payment_rail: deposit.paymentRail,
    rail_selection_mode: null,
    failure_reason: null,
    pending_reason: null,
    description: deposit.description,
    reference: null,
    source: deposit.source,
    destination: { destinationType: "ACCOUNT", accountId: account.id },
    settled_at: now,
    created_at: now,
    updated_at: now,
    ...extra,
    // Money sent to a rule-based account lands on its owner's account; the row says which it came through.
    details: { ...(account.via ? { receivedThroughAccountId: account.via } : {}), ...extraDetails },
  };
  // Neither needs the other's answer, so both statements go out in one round trip (issue 20).
  const [{ accounts }] = await together(
    postBalanceChanges(tx, {
      platformId: caller.platformId,
      now,
      locked: account.locked,
      postings: [{ accountId: account.id, amount: deposit.amount, transactionId: row.id }],
    }),
    insertPayment(tx, row),
  );
  const updated = accounts.get(account.id);
  if (!updated) throw new Error("posted account missing from the result");
  return { transaction: row, account: updated };
}

/** Sandbox funding (conventions §3.3): an instant deposit; answers the funded account. */
export async function fundAccount(
  deps: Deps,
  caller: Caller,
  rawAccountId: string,
  amount: number,
): Promise<InternalAccount> {
  return deps.db.transaction(
    async (tx) => {
      const account = await receivingAccount(tx, caller, rawAccountId);
      const deposit = {
        amount,
        description: "Sandbox funding",
        paymentRail: null,
        source: { sourceType: "REALTIME_FUNDING", currency: account.currency },
      };
      const result = await recordDeposit(tx, caller, account, deposit, nowFor(deps, caller));
      return toInternalAccount(result.account);
    },
    { grouped: true },
  );
}

/** Sandbox ACH deposit: an incoming ACH credit that settles at once and can later be returned. */
export async function achDeposit(
  deps: Deps,
  caller: Caller,
  rawAccountId: string,
  amount: number,
): Promise<Transaction> {
  return deps.db.transaction(
    async (tx) => {
      const account = await receivingAccount(tx, caller, rawAccountId);
      if (account.currency !== "USD") {
        throw new ApiError("INVALID_CURRENCY", {
          reason: `ACH deposits are USD only; account ${account.id} holds ${account.currency}.`,
        });
      }
      const deposit = {
        amount,
        description: "ACH deposit",
        paymentRail: "ACH",
        source: { sourceType: "ACH", currency: "USD" },
      };
      const result = await recordDeposit(tx, caller, account, deposit, nowFor(deps, caller));
      return toTransaction(result.transaction);
    },
    { grouped: true },
  );
}
