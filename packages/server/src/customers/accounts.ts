import type { Static } from "typebox";
import type { Executor, Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import { sha256Hex } from "../core/hash.js";
import type { Caller } from "../core/http/context.js";
import type { PageRequest, PageResult } from "../core/http/pagination.js";
import { newId, parseId } from "../core/ids.js";
import { money } from "../core/money.js";
import * as store from "./accounts-store.js";
import { findActiveCustomerOrThrow } from "./customers.js";
import type { InternalAccount as InternalAccountSchema } from "./schemas.js";

export type InternalAccount = Static<typeof InternalAccountSchema>;
type FundingPaymentInstruction = InternalAccount["fundingPaymentInstructions"][number];

// Sandbox pay-in coordinates: a fixed routing number with a valid ABA checksum and an account number
// derived from the account id, so the same account always shows the same instructions.
const SANDBOX_ROUTING_NUMBER = "123456780";

function fundingInstructions(row: store.InternalAccountRow): FundingPaymentInstruction[] {
  if (row.type !== "INTERNAL_FIAT" || row.currency !== "USD") return [];
  const digits = BigInt(`0x${sha256Hex(row.id).slice(0, 15)}`)
    .toString()
    .padStart(12, "0")
    .slice(-12);
  return [
    {
      instructionsNotes: "Send an ACH or wire transfer to these coordinates, quoting the reference.",
      accountOrWalletInfo: {
        accountType: "USD_ACCOUNT",
        accountNumber: digits,
        routingNumber: SANDBOX_ROUTING_NUMBER,
        bankName: "paysvc Sandbox Bank",
        reference: row.id.slice(-12).toUpperCase(),
      },
    },
  ];
}

/** The wire InternalAccount: `balance` is available (total minus card holds), `totalBalance` the ledger. */
export function toInternalAccount(row: store.InternalAccountRow): InternalAccount {
  const account: InternalAccount = {
    id: row.id,
    type: row.type,
    status: row.status as InternalAccount["status"],
    balance: money(row.total_balance - row.held_amount, row.currency),
    totalBalance: money(row.total_balance, row.currency),
    fundingPaymentInstructions: fundingInstructions(row),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.customer_id) account.customerId = row.customer_id;
  if (row.type === "EMBEDDED_WALLET") account.privateEnabled = row.private_enabled ?? false;
  return account;
}

/** Reads an account of the caller's platform; a malformed, foreign or unknown id is `404 ACCOUNT_NOT_FOUND`. */
export async function findAccountOrThrow(
  db: Executor,
  caller: Caller,
  rawId: string,
): Promise<store.InternalAccountRow> {
  const id = parseId("InternalAccount", rawId);
  const row = id ? await store.findInternalAccount(db, caller.platformId, id) : undefined;
  if (!row) throw new ApiError("ACCOUNT_NOT_FOUND", { reason: `No internal account ${rawId}.` });
  return row;
}

export async function getInternalAccount(
  deps: Deps,
  caller: Caller,
  rawId: string,
): Promise<InternalAccount> {
  return toInternalAccount(await findAccountOrThrow(deps.db, caller, rawId));
}

export async function listCustomerInternalAccounts(
  deps: Deps,
  caller: Caller,
  filters: store.AccountFilters,
  page: PageRequest,
): Promise<PageResult<InternalAccount>> {
  const result = await store.listCustomerAccounts(deps.db, caller.platformId, filters, page);
  return { ...result, data: result.data.map(toInternalAccount) };
}

export async function listPlatformInternalAccounts(
  deps: Deps,
  caller: Caller,
  filters: store.AccountFilters,
): Promise<{ data: InternalAccount[] }> {
  const rows = await store.listPlatformAccounts(deps.db, caller.platformId, filters);
  return { data: rows.map(toInternalAccount) };
}

/**
 * A rule-based account of a customer: money sent to it lands on the customer's own account in the
 * same currency, so it has no balance and no statement of its own.
 */
export async function openRuleBasedAccount(
  deps: Deps,
  caller: Caller,
  rawCustomerId: string,
  currency: string,
): Promise<InternalAccount> {
  return deps.db.transaction(async (tx) => {
    const customer = await findActiveCustomerOrThrow(tx, caller, rawCustomerId);
    const owner = await store.findStandardAccount(tx, customer.id, currency);
    if (!owner) {
      throw new ApiError("CONFLICT", {
        reason: `Customer ${customer.id} has no ${currency} account for a rule-based account to feed.`,
      });
    }
    const now = nowFor(deps, caller);
    const id = newId("InternalAccount");
    await store.insertInternalAccount(tx, {
      id,
      platform_id: caller.platformId,
      customer_id: customer.id,
      type: owner.type,
      role: "RULE_BASED",
      status: "ACTIVE",
      currency,
      private_enabled: null,
      created_at: now,
      updated_at: now,
    });
    return toInternalAccount(await findAccountOrThrow(tx, caller, id));
  });
}

/** The account that money sent to `account` lands on: itself, or a rule-based account's owner account. */
export async function landingAccount(
  tx: Tx,
  account: store.InternalAccountRow,
): Promise<store.InternalAccountRow> {
  if (account.role !== "RULE_BASED" || account.customer_id === null) return account;
  const owner = await store.findStandardAccount(tx, account.customer_id, account.currency);
  if (!owner)
    throw new ApiError("CONFLICT", {
      reason: `Rule-based account ${account.id} has no owner account to land on.`,
    });
  return owner;
}
