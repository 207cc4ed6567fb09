import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { PageRequest, PageResult } from "../core/http/pagination.js";
import { type InternalAccount, listCustomerInternalAccounts } from "../customers/accounts.js";
import type { InternalAccountType } from "../customers/accounts-store.js";
import {
  createCustomerExternalAccount,
  deleteExternalAccount,
  findExternalAccountOrThrow,
  getExternalAccount,
  listExternalAccounts,
} from "../external-accounts/external-accounts.js";
import type { CreatePlatformExternalAccountBody, ExternalAccount } from "../external-accounts/schemas.js";
import { findPaymentOrThrow } from "../payments/lookup.js";
import { toTransaction } from "../payments/wire.js";
import type { CardRows } from "../transactions/card-rows.js";
import { type AnyTransaction, type ListFilters, listTransactions } from "../transactions/transactions.js";
import { getAgent } from "./agents.js";
import { agentOf } from "./payments.js";
import type { Agent } from "./schemas.js";

// Every agent route reads and writes only its customer's resources, through the owning area's domain
// functions with the customer fixed: another customer's ids answer like ids that do not exist.

/** `GET /agents/me`. */
export function getSelf(deps: Deps, caller: Caller): Promise<Agent> {
  return getAgent(deps, caller, agentOf(caller).agentId);
}

/** `GET /agents/me/internal-accounts`: the customer's internal accounts. */
export function listSelfInternalAccounts(
  deps: Deps,
  caller: Caller,
  filters: { currency?: string | undefined; type?: InternalAccountType | undefined },
  page: PageRequest,
): Promise<PageResult<InternalAccount>> {
  return listCustomerInternalAccounts(
    deps,
    caller,
    { ...filters, customerId: agentOf(caller).customerId },
    page,
  );
}

/** `GET /agents/me/external-accounts`: the customer's external accounts. */
export function listSelfExternalAccounts(
  deps: Deps,
  caller: Caller,
  filters: { currency?: string | undefined },
  page: PageRequest,
): Promise<PageResult<ExternalAccount>> {
  const customerId = agentOf(caller).customerId;
  return listExternalAccounts(deps, caller, { ...filters, owner: "customer", customerId }, page);
}

/** `POST /agents/me/external-accounts`: `POST /customers/external-accounts` for the agent's customer. */
export function createSelfExternalAccount(
  deps: Deps,
  caller: Caller,
  body: CreatePlatformExternalAccountBody,
): Promise<ExternalAccount> {
  return createCustomerExternalAccount(deps, caller, { ...body, customerId: agentOf(caller).customerId });
}

/** `GET /agents/me/transactions`: the customer's transactions (payments and card rows), newest first. */
export function listSelfTransactions(
  deps: Deps,
  caller: Caller,
  filters: Omit<ListFilters, "customerId" | "platformCustomerId">,
  page: PageRequest,
  cards: CardRows,
): Promise<PageResult<AnyTransaction>> {
  return listTransactions(deps, caller, { ...filters, customerId: agentOf(caller).customerId }, page, cards);
}

/** `GET /agents/me/transactions/{id}`: one of the customer's payment transactions, else `404 TRANSACTION_NOT_FOUND`. */
export async function getSelfTransaction(deps: Deps, caller: Caller, rawId: string): Promise<AnyTransaction> {
  const notFound = () => new ApiError("TRANSACTION_NOT_FOUND", { reason: `No transaction ${rawId}.` });
  const row = await findPaymentOrThrow(deps.db, caller, rawId).catch((error: unknown) => {
    throw error instanceof ApiError ? notFound() : error;
  });
  if (row.customer_id !== agentOf(caller).customerId) throw notFound();
  return toTransaction(row);
}

/** One external account of the agent's customer; another customer's id reads like an unknown one. */
async function findSelfExternalAccount(deps: Deps, caller: Caller, rawId: string) {
  const row = await findExternalAccountOrThrow(deps.db, caller, rawId, "customer");
  if (row.customer_id !== agentOf(caller).customerId)
    throw new ApiError("ACCOUNT_NOT_FOUND", { reason: `No external account ${rawId}.` });
  return row;
}

/** `GET /agents/me/external-accounts/{id}`: one of the customer's external accounts, else `404 ACCOUNT_NOT_FOUND`. */
export async function getSelfExternalAccount(
  deps: Deps,
  caller: Caller,
  rawId: string,
): Promise<ExternalAccount> {
  await findSelfExternalAccount(deps, caller, rawId);
  return getExternalAccount(deps, caller, rawId, "customer");
}

/**
 * `DELETE /agents/me/external-accounts/{id}`: `DELETE /customers/external-accounts/{id}` for one of the
 * customer's accounts (a trusted beneficiary is `409 BENEFICIARY_TRUSTED`). An account's customer never
 * changes, so the ownership check holds for the delete's own transaction.
 */
export async function deleteSelfExternalAccount(deps: Deps, caller: Caller, rawId: string): Promise<void> {
  await findSelfExternalAccount(deps, caller, rawId);
  await deleteExternalAccount(deps, caller, rawId, "customer");
}
