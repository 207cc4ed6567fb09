import type { Static } from "typebox";
import type { Executor, Tx } from "../core/db/db.js";
import { isUniqueViolation } from "../core/db/sqlstate.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, type FieldError, invalidInput } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { PageRequest, PageResult } from "../core/http/pagination.js";
import { newId, parseId } from "../core/ids.js";
import { isKnownCurrency } from "../core/money.js";
import { findActiveCustomerOrThrow } from "../customers/customers.js";
import {
  type BankAccountSpec,
  bankAccountProblems,
  bankAccountProblemsBeside,
  bankIdentity,
  type Info,
  sandboxNumber,
} from "./bank-accounts/spec.js";
import { bankAccountSpec } from "./bank-accounts/table.js";
import { checkBeneficiary } from "./bank-accounts/usd.js";
import { startBankValidation, startSuffixValidation } from "./bank-validation.js";
import type {
  AccountInfo,
  CreatePlatformExternalAccountBody,
  ExternalAccount,
  LightningAccountInfo,
  WalletAccountInfo,
} from "./schemas.js";
import * as store from "./store.js";
import { addressProblem, walletCurrencies, walletIdentity } from "./wallets/addresses.js";
import { toExternalAccount } from "./wire.js";

type WalletInfo = Static<typeof WalletAccountInfo>;
type LightningInfo = Static<typeof LightningAccountInfo>;

type NewAccount = Pick<store.ExternalAccountRow, "identity" | "status"> & { errors: FieldError[] };

/** A bank account of any corridor (bank-accounts/table.ts): PENDING until validated (bank-validation.ts). */
function bankAccount(input: CreatePlatformExternalAccountBody, spec: BankAccountSpec): NewAccount {
  const info = input.accountInfo as Info;
  const errors = bankAccountProblems(spec, { currency: input.currency, accountInfo: info });
  return { identity: bankIdentity(spec, info), status: "PENDING", errors };
}

const isWalletInfo = (info: AccountInfo): info is WalletInfo | LightningInfo =>
  bankAccountSpec(info.accountType) === undefined;

/**
 * A crypto wallet or Lightning destination. A FIRST_PARTY self-custody wallet (no `vaspName`) starts
 * PENDING_OWNERSHIP_VERIFICATION; every other wallet starts ACTIVE (conventions §4.1).
 */
function walletAccount(
  input: CreatePlatformExternalAccountBody,
  info: WalletInfo | LightningInfo,
): NewAccount {
  const errors: FieldError[] = [];
  if (!walletCurrencies(info.accountType).includes(input.currency))
    errors.push({
      field: "currency",
      message: `must be one of ${walletCurrencies(info.accountType).join(", ")} for a ${info.accountType}`,
    });
  if (input.ownershipType === "THIRD_PARTY" && info.beneficiary === undefined)
    errors.push({ field: "accountInfo.beneficiary", message: "is required for a THIRD_PARTY wallet" });
  if (info.beneficiary) errors.push(...checkBeneficiary(info.beneficiary));
  let identity: string;
  if (info.accountType === "LIGHTNING") {
    const given = [info.invoice, info.bolt12, info.lightningAddress].filter((v) => v !== undefined);
    if (given.length !== 1)
      errors.push({
        field: "accountInfo",
        message: "needs exactly one of invoice, bolt12, lightningAddress",
      });
    identity = (given[0] ?? "").toLowerCase();
  } else {
    const problem = addressProblem(info.accountType, info.address);
    if (problem) errors.push({ field: "accountInfo.address", message: problem });
    identity = walletIdentity(info.accountType, info.address);
  }
  const selfCustody = info.accountType !== "LIGHTNING" && info.vaspName === undefined;
  const status =
    selfCustody && input.ownershipType === "FIRST_PARTY" ? "PENDING_OWNERSHIP_VERIFICATION" : "ACTIVE";
  return { identity, status, errors };
}

/** Every field rule of a new account at once (`400 INVALID_INPUT` listing them), before any lookup. */
function checkNewAccount(input: CreatePlatformExternalAccountBody): NewAccount {
  const info = input.accountInfo;
  const spec = bankAccountSpec(info.accountType);
  let account: NewAccount;
  if (spec) {
    // A bank account's currency is its type's (bank-accounts/spec.ts).
    account = bankAccount(input, spec);
  } else {
    if (!isWalletInfo(info))
      throw new Error(`accountType ${info.accountType} passed the schema but has no rules`);
    account = walletAccount(input, info);
    if (!isKnownCurrency(input.currency)) {
      account.errors = account.errors.filter((error) => error.field !== "currency");
      account.errors.unshift({ field: "currency", message: `${input.currency} is not a supported currency` });
    }
  }
  if (account.errors.length > 0) throw invalidInput(account.errors);
  return account;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The `400` for a create body the schema refused: its FieldErrors, and those of the bank account type's
 * own rules (checksums, the type's currency…) on the fields that passed, all in one answer.
 */
export function invalidAccountBody(schemaErrors: FieldError[], body: unknown): ApiError {
  const info = isRecord(body) && isRecord(body.accountInfo) ? body.accountInfo : undefined;
  const spec = typeof info?.accountType === "string" ? bankAccountSpec(info.accountType) : undefined;
  if (!spec || !info || !isRecord(body)) return invalidInput(schemaErrors);
  const rules = bankAccountProblemsBeside(spec, { currency: body.currency, accountInfo: info }, schemaErrors);
  return invalidInput([...schemaErrors, ...rules]);
}

async function create(
  deps: Deps,
  caller: Caller,
  customerId: string | null,
  input: CreatePlatformExternalAccountBody,
  account: NewAccount,
  tx: Tx,
): Promise<ExternalAccount> {
  const info = input.accountInfo;
  const now = nowFor(deps, caller);
  const row: store.ExternalAccountRow = {
    id: newId("ExternalAccount"),
    platform_id: caller.platformId,
    customer_id: customerId,
    status: account.status,
    currency: input.currency,
    account_type: info.accountType,
    identity: account.identity,
    account_info: info,
    ownership_type: input.ownershipType ?? null,
    platform_account_id: input.platformAccountId ?? null,
    default_uma_deposit_account: input.defaultUmaDepositAccount ?? false,
    deleted_at: null,
    created_at: now,
    updated_at: now,
  };
  await store.insertExternalAccount(tx, row);
  const spec = bankAccountSpec(info.accountType);
  if (!spec) return toExternalAccount(row);
  const number = sandboxNumber(spec, info as Info);
  const validated =
    spec.validation === "MICRO_ENTRIES"
      ? await startBankValidation(tx, caller, row, number, now)
      : await startSuffixValidation(tx, caller, row, number, now);
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

/** `POST /customers/external-accounts`: a bank account or wallet of a customer, validated (sandbox: at once). */
export function createCustomerExternalAccount(
  deps: Deps,
  caller: Caller,
  input: CreatePlatformExternalAccountBody & { customerId: string },
): Promise<ExternalAccount> {
  const { customerId, ...fields } = input;
  const account = checkNewAccount(fields);
  return mapDuplicate(() =>
    deps.db.transaction(async (tx) => {
      const customer = await findActiveCustomerOrThrow(tx, caller, customerId);
      return create(deps, caller, customer.id, fields, account, tx);
    }),
  );
}

/** `POST /platform/external-accounts`: a platform-owned external account. */
export function createPlatformExternalAccount(
  deps: Deps,
  caller: Caller,
  input: CreatePlatformExternalAccountBody,
) {
  const account = checkNewAccount(input);
  return mapDuplicate(() => deps.db.transaction((tx) => create(deps, caller, null, input, account, tx)));
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
    if (row.trusted_at)
      throw new ApiError("BENEFICIARY_TRUSTED", {
        reason: `External account ${row.id} is a trusted beneficiary; untrust it (untrust, then confirm) first.`,
      });
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
