import { randomUUID } from "node:crypto";
import type { Static } from "typebox";
import type { Executor, Tx } from "../core/db/db.js";
import { isUniqueViolation } from "../core/db/sqlstate.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, type FieldError, invalidInput } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { PageRequest, PageResult } from "../core/http/pagination.js";
import { newId, parseId } from "../core/ids.js";
import { findPlatform } from "../platform/store.js";
import { umaDomainOf } from "../platform/uma-domain.js";
import { type ConsentInput, consentsOf, type DeprecatedTermsConsent } from "./agreements.js";
import { contactVerificationOf, needingProofs } from "./contact-verification.js";
import { emitKycStatusChange } from "./events.js";
import { decidingSuffix, skipPaperworkOutcome } from "./kyc-outcomes.js";
import { openCustomerAccounts } from "./open-accounts.js";
import type { Customer as CustomerSchema } from "./schemas.js";
import * as store from "./store.js";

export const profileFields = [
  "region",
  "currencies",
  "fullName",
  "birthDate",
  "nationality",
  "email",
  "phoneNumber",
  "address",
  "businessInfo",
  "enhancedDueDiligence",
] as const;

const individualOnly = ["birthDate", "nationality", "enhancedDueDiligence"] as const;
const businessOnly = ["businessInfo"] as const;

export interface CustomerInput {
  [field: string]: unknown;
  platformCustomerId?: string | undefined;
  umaAddress?: string | undefined;
  agreementConsents?: ConsentInput[] | undefined;
  endUserTermsConsent?: DeprecatedTermsConsent | undefined;
}

export interface AgreementConsent {
  type: string;
  acceptedAt: string;
  ipAddress?: string;
  termsVersion: string;
  acceptanceMethod: string;
}

export type Customer = Static<typeof CustomerSchema>;

function toConsent(row: store.ConsentRow): AgreementConsent {
  const consent: AgreementConsent = {
    type: row.type,
    acceptedAt: row.accepted_at.toISOString(),
    termsVersion: row.terms_version,
    acceptanceMethod: row.acceptance_method,
  };
  if (row.ip_address !== null) consent.ipAddress = row.ip_address;
  return consent;
}

/**
 * The wire Customer: echoed profile fields, the latest consent per type, the deprecated single entry, and
 * `contactVerification` from the proven contact values (`store.contactProofs`).
 */
export function toCustomer(
  row: store.CustomerRow,
  consents: store.ConsentRow[],
  proofs: store.ContactProofRow[],
): Customer {
  const agreementConsents = consents
    .filter((c) => c.customer_id === row.id)
    .sort((a, b) => (a.type < b.type ? -1 : 1))
    .map(toConsent);
  const customer = {
    id: row.id,
    customerType: row.customer_type,
    umaAddress: row.uma_address,
    kycStatus: row.kyc_status,
    isDeleted: row.is_deleted,
    ...row.profile,
    agreementConsents,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  } as Customer;
  // The hosted API names a business's status kybStatus; ours is kycStatus for both types (conventions §2.1).
  if (row.customer_type === "BUSINESS") customer.kybStatus = row.kyc_status;
  if (row.platform_customer_id !== null) customer.platformCustomerId = row.platform_customer_id;
  const contactVerification = contactVerificationOf(row, proofs);
  if (contactVerification) customer.contactVerification = contactVerification;
  const terms = agreementConsents.find((c) => c.type === "SERVICE_END_USER_TERMS");
  if (terms) {
    const { type: _type, ...deprecated } = terms;
    customer.endUserTermsConsent = deprecated;
  }
  return customer;
}

export const umaPattern = /^\$[a-z0-9._-]{1,64}@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i;

/** `400 INVALID_UMA_ADDRESS` unless `umaAddress` is absent or looks like `$name@domain.tld`. */
export function checkUmaAddress(umaAddress: string | undefined): void {
  if (umaAddress !== undefined && !umaPattern.test(umaAddress)) {
    throw new ApiError("INVALID_UMA_ADDRESS", {
      reason: "umaAddress must look like $name@domain.tld.",
      details: { field: "umaAddress" },
    });
  }
}

/** `400` for fields of the other customer type, and for a `customerType` that would change it. */
export function checkTypeFields(customerType: string, input: Record<string, unknown>): void {
  const misplaced = customerType === "INDIVIDUAL" ? businessOnly : individualOnly;
  const errors: FieldError[] = misplaced
    .filter((field) => input[field] !== undefined)
    .map((field) => ({ field, message: `is not accepted for ${customerType} customers` }));
  if (input.customerType !== undefined && input.customerType !== customerType) {
    errors.unshift({
      field: "customerType",
      message: `must be ${customerType}: a customer's type cannot change`,
    });
  }
  if (errors.length > 0) throw invalidInput(errors);
}

function pickProfile(input: Record<string, unknown>): store.CustomerProfile {
  const profile: store.CustomerProfile = {};
  for (const field of profileFields) if (input[field] !== undefined) profile[field] = input[field];
  return profile;
}

/** A customer created without `umaAddress` receives at the platform's UMA domain (platform/uma-domain.ts). */
function generatedUmaAddress(customerId: string, domain: string): string {
  return `$${customerId.slice(-12)}@${domain}`;
}

async function writeConsents(tx: Tx, customerId: string, consents: ConsentInput[], now: Date): Promise<void> {
  for (const consent of consents) {
    await store.insertConsent(tx, {
      id: randomUUID(),
      customer_id: customerId,
      type: consent.type,
      terms_version: consent.termsVersion,
      accepted_at: new Date(consent.acceptedAt),
      ip_address: consent.ipAddress ?? null,
      acceptance_method: consent.acceptanceMethod ?? "CLICKWRAP",
      recorded_at: now,
    });
  }
}

/** Runs a write, turning the customer unique constraints into their catalogue codes. */
export async function mapConflicts<T>(
  work: () => Promise<T>,
  input: { platformCustomerId?: string | undefined; umaAddress?: string | undefined },
) {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, store.customerConstraints.platformCustomerId)) {
      throw new ApiError("CONFLICT", {
        reason: `platformCustomerId ${input.platformCustomerId} is already used by an active customer on this platform.`,
      });
    }
    if (isUniqueViolation(error, store.customerConstraints.umaAddress)) {
      throw new ApiError("UMA_ADDRESS_EXISTS", { reason: `UMA address ${input.umaAddress} already exists.` });
    }
    throw error;
  }
}

/** The wire Customer of a row, its consents and contact proofs read with `db` (a transaction's, when in one). */
export async function loadCustomer(db: Executor, row: store.CustomerRow): Promise<Customer> {
  const proofs = await store.contactProofs(db, needingProofs([row]));
  return toCustomer(row, await store.latestConsents(db, [row.id]), proofs);
}

/** `POST /customers`: the customer, its consents and its internal accounts in one transaction. */
export async function createCustomer(
  deps: Deps,
  caller: Caller,
  input: CustomerInput & { customerType: "INDIVIDUAL" | "BUSINESS" },
): Promise<Customer> {
  checkTypeFields(input.customerType, input);
  checkUmaAddress(input.umaAddress);
  const consents = consentsOf(input);
  const now = nowFor(deps, caller);
  const id = newId("Customer");
  return mapConflicts(
    () =>
      deps.db.transaction(async (tx) => {
        const platform = await findPlatform(tx, caller.platformId);
        if (!platform) throw new ApiError("PLATFORM_NOT_FOUND");
        const row: store.CustomerRow = {
          id,
          platform_id: caller.platformId,
          platform_customer_id: input.platformCustomerId ?? null,
          customer_type: input.customerType,
          kyc_status: "UNVERIFIED",
          uma_address: input.umaAddress ?? generatedUmaAddress(id, umaDomainOf(platform, deps.publicUrl)),
          is_deleted: false,
          profile: pickProfile(input),
          created_at: now,
          updated_at: now,
        };
        // Skip-paperwork resolves individuals at create; businesses resolve at their first submission.
        if (
          platform.environment === "SANDBOX" &&
          platform.sandbox_skip_verification_paperwork &&
          input.customerType === "INDIVIDUAL"
        ) {
          row.kyc_status = skipPaperworkOutcome(decidingSuffix(row)) ?? "UNVERIFIED";
        }
        await store.insertCustomer(tx, row);
        await writeConsents(tx, id, consents, now);
        await openCustomerAccounts(tx, {
          platformId: caller.platformId,
          customerId: id,
          supportedCurrencies: platform.supported_currencies,
          hasEmail: typeof input.email === "string",
          ...(typeof input.email === "string" ? { email: input.email } : {}),
          now,
        });
        const customer = await loadCustomer(tx, row);
        // Skip-paperwork's outcome is a change from the UNVERIFIED start: it fires CUSTOMER.KYC_*.
        await emitKycStatusChange(tx, {
          platformId: caller.platformId,
          previous: "UNVERIFIED",
          customer,
          now,
        });
        return customer;
      }),
    input,
  );
}

/** Reads a customer of the caller's platform; malformed, foreign or unknown ids are `404 CUSTOMER_NOT_FOUND`. */
export async function findCustomerOrThrow(db: Executor, caller: Caller, rawId: string, lock = false) {
  const id = parseId("Customer", rawId);
  const row = id ? await store.findCustomer(db, caller.platformId, id, lock) : undefined;
  if (!row) throw new ApiError("CUSTOMER_NOT_FOUND", { reason: `No customer ${rawId}.` });
  return row;
}

/** For writes: like findCustomerOrThrow, and a deleted customer is `409 CONFLICT`. */
export async function findActiveCustomerOrThrow(tx: Tx, caller: Caller, rawId: string) {
  const row = await findCustomerOrThrow(tx, caller, rawId, true);
  if (row.is_deleted)
    throw new ApiError("CONFLICT", { reason: `Customer ${row.id} is deleted and cannot be changed.` });
  return row;
}

export async function getCustomer(deps: Deps, caller: Caller, rawId: string): Promise<Customer> {
  return loadCustomer(deps.db, await findCustomerOrThrow(deps.db, caller, rawId));
}

/** A PATCH's profile fields replace the stored ones, except `businessInfo`, merged field by field (BusinessInfoUpdate). */
function mergeProfile(stored: store.CustomerProfile, patch: store.CustomerProfile): store.CustomerProfile {
  const merged = { ...stored, ...patch };
  if (patch.businessInfo !== undefined)
    merged.businessInfo = {
      ...(stored.businessInfo as object | undefined),
      ...(patch.businessInfo as object),
    };
  return merged;
}

/** Applies a validated PATCH to a locked customer row: profile merge, identifiers, new consents. */
export async function applyCustomerUpdate(
  tx: Tx,
  row: store.CustomerRow,
  input: CustomerInput,
  now: Date,
): Promise<Customer> {
  const updated: store.CustomerRow = {
    ...row,
    platform_customer_id: input.platformCustomerId ?? row.platform_customer_id,
    uma_address: input.umaAddress ?? row.uma_address,
    profile: mergeProfile(row.profile, pickProfile(input)),
    updated_at: now,
  };
  await store.updateCustomer(tx, updated);
  await writeConsents(tx, row.id, consentsOf(input), now);
  return loadCustomer(tx, updated);
}

/**
 * `DELETE /customers/{id}`: marks the customer deleted, freeing its platformCustomerId, and answers the
 * deleted Customer (`200`, as the hosted API does).
 */
export async function deleteCustomer(deps: Deps, caller: Caller, rawId: string): Promise<Customer> {
  return deps.db.transaction(async (tx) => {
    const row = await findActiveCustomerOrThrow(tx, caller, rawId);
    const deleted = { ...row, is_deleted: true, updated_at: nowFor(deps, caller) };
    await store.updateCustomer(tx, deleted);
    return loadCustomer(tx, deleted);
  });
}

export async function listCustomers(
  deps: Deps,
  caller: Caller,
  filters: store.CustomerFilters,
  page: PageRequest,
): Promise<PageResult<Customer>> {
  const result = await store.listCustomers(deps.db, caller.platformId, filters, page);
  const consents = await store.latestConsents(
    deps.db,
    result.data.map((row) => row.id),
  );
  const proofs = await store.contactProofs(deps.db, needingProofs(result.data));
  return { ...result, data: result.data.map((row) => toCustomer(row, consents, proofs)) };
}
