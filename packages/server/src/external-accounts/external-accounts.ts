import type { Executor, Tx } from "../core/db/db.js";
import { isUniqueViolation } from "../core/db/sqlstate.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, type FieldError, invalidInput } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { PageRequest, PageResult } from "../core/http/pagination.js";
import { newId, parseId, sandboxSuffix } from "../core/ids.js";
import { isKnownCurrency } from "../core/money.js";
import { findActiveCustomerOrThrow } from "../customers/customers.js";
import { enqueueEvent } from "../webhooks/outbox.js";
import type { CreatePlatformExternalAccountBody, ExternalAccount } from "./schemas.js";
import * as store from "./store.js";

export function toExternalAccount(row: store.ExternalAccountRow): ExternalAccount {
  const account: ExternalAccount = {
    id: row.id,
    status: row.status as ExternalAccount["status"],
    currency: row.currency,
    accountInfo: row.account_info,
    defaultUmaDepositAccount: row.default_uma_deposit_account,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.customer_id !== null) account.customerId = row.customer_id;
  if (row.platform_account_id !== null) account.platformAccountId = row.platform_account_id;
  if (row.ownership_type !== null)
    account.ownershipType = row.ownership_type as "FIRST_PARTY" | "THIRD_PARTY";
  return account;
}

function checkBeneficiary(beneficiary: Record<string, unknown>): FieldError[] {
  const required =
    beneficiary.beneficiaryType === "INDIVIDUAL"
      ? ["fullName", "countryOfResidence"]
      : ["legalName", "countryOfIncorporation"];
  const errors: FieldError[] = required
    .filter((field) => beneficiary[field] === undefined)
    .map((field) => ({
      field: `accountInfo.beneficiary.${field}`,
      message: `is required for a ${beneficiary.beneficiaryType} beneficiary`,
    }));
  return errors;
}

/** Sandbox bank validation by accountNumber suffix (conventions §4.1): 008 stays PENDING, 009 fails. */
function bankValidationOutcome(accountNumber: string): "ACTIVE" | "PENDING" | "INACTIVE" {
  const suffix = sandboxSuffix(accountNumber);
  return suffix === "008" ? "PENDING" : suffix === "009" ? "INACTIVE" : "ACTIVE";
}

async function create(
  deps: Deps,
  caller: Caller,
  customerId: string | null,
  input: CreatePlatformExternalAccountBody,
  tx: Tx,
): Promise<ExternalAccount> {
  const errors = checkBeneficiary(input.accountInfo.beneficiary);
  if (!isKnownCurrency(input.currency))
    errors.unshift({ field: "currency", message: `${input.currency} is not a supported currency` });
  else if (input.accountInfo.accountType === "USD_ACCOUNT" && input.currency !== "USD") {
    errors.unshift({ field: "currency", message: "must be USD for a USD_ACCOUNT" });
  }
  if (errors.length > 0) throw invalidInput(errors);
  const now = nowFor(deps, caller);
  const row: store.ExternalAccountRow = {
    id: newId("ExternalAccount"),
    platform_id: caller.platformId,
    customer_id: customerId,
    status: "PENDING",
    currency: input.currency,
    account_type: input.accountInfo.accountType,
    identity: `${input.accountInfo.routingNumber}:${input.accountInfo.accountNumber}`,
    account_info: input.accountInfo,
    ownership_type: input.ownershipType ?? null,
    platform_account_id: input.platformAccountId ?? null,
    default_uma_deposit_account: input.defaultUmaDepositAccount ?? false,
    deleted_at: null,
    created_at: now,
    updated_at: now,
  };
  await store.insertExternalAccount(tx, row);
  const outcome =
    caller.environment === "SANDBOX" ? bankValidationOutcome(input.accountInfo.accountNumber) : "PENDING";
  if (outcome === "PENDING") return toExternalAccount(row);
  const validated = await store.updateStatus(tx, row.id, outcome, now);
  await enqueueEvent(tx, {
    platformId: caller.platformId,
    type: "EXTERNAL_ACCOUNT.STATUS_UPDATED",
    data: toExternalAccount(validated),
    now,
  });
  return toExternalAccount(validated);
}

async function mapDuplicate<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, store.equivalentConstraint)) {
      throw new ApiError("DUPLICATE_EXTERNAL_ACCOUNT", {
        reason: "An equivalent external account (same owner, currency, type and account details) exists.",
      });
    }
    throw error;
  }
}

/** `POST /customers/external-accounts`: a USD bank account of a customer, validated (sandbox: at once). */
export function createCustomerExternalAccount(
  deps: Deps,
  caller: Caller,
  input: CreatePlatformExternalAccountBody & { customerId: string },
): Promise<ExternalAccount> {
  return mapDuplicate(() =>
    deps.db.transaction(async (tx) => {
      const customer = await findActiveCustomerOrThrow(tx, caller, input.customerId);
      const { customerId: _customerId, ...fields } = input;
      return create(deps, caller, customer.id, fields, tx);
    }),
  );
}

/** `POST /platform/external-accounts`: a platform-owned external account. */
export function createPlatformExternalAccount(
  deps: Deps,
  caller: Caller,
  input: CreatePlatformExternalAccountBody,
) {
  return mapDuplicate(() => deps.db.transaction((tx) => create(deps, caller, null, input, tx)));
}

/** Reads a live external account; unknown, deleted, foreign or malformed ids are `404 ACCOUNT_NOT_FOUND`. */
export async function findExternalAccountOrThrow(
  db: Executor,
  caller: Caller,
  rawId: string,
  owner: "customer" | "platform",
  lock = false,
) {
  const id = parseId("ExternalAccount", rawId);
  const row = id ? await store.findExternalAccount(db, caller.platformId, id, lock) : undefined;
  if (!row || (owner === "customer") !== (row.customer_id !== null)) {
    throw new ApiError("ACCOUNT_NOT_FOUND", { reason: `No external account ${rawId}.` });
  }
  return row;
}

export async function getExternalAccount(
  deps: Deps,
  caller: Caller,
  rawId: string,
  owner: "customer" | "platform",
) {
  return toExternalAccount(await findExternalAccountOrThrow(deps.db, caller, rawId, owner));
}

export async function deleteExternalAccount(
  deps: Deps,
  caller: Caller,
  rawId: string,
  owner: "customer" | "platform",
) {
  await deps.db.transaction(async (tx) => {
    const row = await findExternalAccountOrThrow(tx, caller, rawId, owner, true);
    await store.markDeleted(tx, row.id, nowFor(deps, caller));
  });
}

export async function listExternalAccounts(
  deps: Deps,
  caller: Caller,
  filters: { owner: "customer" | "platform"; customerId?: string | undefined; currency?: string | undefined },
  page: PageRequest,
): Promise<PageResult<ExternalAccount>> {
  const result = await store.listExternalAccounts(deps.db, caller.platformId, filters, page);
  return { ...result, data: result.data.map(toExternalAccount) };
}
