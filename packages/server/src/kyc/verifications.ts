import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { PageResult } from "../core/http/pagination.js";
import { newId, parseId } from "../core/ids.js";
import { findActiveCustomerOrThrow, loadCustomer } from "../customers/customers.js";
import { emitKycStatusChange } from "../customers/events.js";
import {
  decidingSuffix,
  isTerminalKyc,
  type KycStatus,
  packetOutcome,
  skipPaperworkOutcome,
} from "../customers/kyc-outcomes.js";
import { type CustomerRow, updateCustomer } from "../customers/store.js";
import { findPlatform, type PlatformRow } from "../platform/store.js";
import { ownersOf, setOwnersKycStatus } from "./beneficial-owner-store.js";
import { identityDocumentTypes } from "./documents.js";
import { emitVerificationCreated } from "./events.js";
import type {
  CreateVerificationBody,
  Verification,
  VerificationError,
  VerificationStatus,
} from "./schemas.js";
import * as store from "./store.js";

interface Profile {
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  address?: object;
  businessInfo?: Record<string, unknown>;
}

export function toVerification(row: store.VerificationRow): Verification {
  return {
    id: row.id,
    customerId: row.customer_id,
    verificationStatus: row.status,
    errors: row.errors,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const absent = (value: unknown) => value === undefined || value === null || value === "";

/** The businessInfo fields a complete KYB packet needs: the hosted API's required BusinessInfo fields. */
const requiredBusinessInfo = ["legalName", "country", "incorporatedOn", "taxId"] as const;

/**
 * The packet check (decisions-kyc.md): one entry per missing profile field, then one per missing document,
 * then a business's missing beneficial owner; each names the customer as its `resourceId`.
 */
export function packetErrors(
  customer: CustomerRow,
  documentTypes: Set<string>,
  ownerCount: number,
): VerificationError[] {
  const profile = customer.profile as Profile;
  const resourceId = customer.id;
  const missingField = (field: string): VerificationError => ({
    resourceId,
    type: "MISSING_FIELD",
    field,
    reason: `${field} is required for verification.`,
  });
  const errors: VerificationError[] = [];
  if (customer.customer_type === "INDIVIDUAL") {
    for (const field of ["fullName", "birthDate", "nationality", "address"] as const) {
      if (absent(profile[field])) errors.push(missingField(field));
    }
    if (!identityDocumentTypes.some((type) => documentTypes.has(type))) {
      errors.push({
        resourceId,
        type: "MISSING_IDENTITY_DOCUMENT",
        acceptedDocumentTypes: [...identityDocumentTypes],
        reason: "One identity document (passport, driver's license or national id) is required.",
      });
    }
    return errors;
  }
  for (const field of requiredBusinessInfo) {
    if (absent(profile.businessInfo?.[field])) errors.push(missingField(`businessInfo.${field}`));
  }
  if (absent(profile.address)) errors.push(missingField("address"));
  if (!documentTypes.has("CERTIFICATE_OF_INCORPORATION")) {
    errors.push({
      resourceId,
      type: "MISSING_LEGAL_PRESENCE_DOCUMENT",
      acceptedDocumentTypes: ["CERTIFICATE_OF_INCORPORATION"],
      reason: "A certificate of incorporation is required.",
    });
  }
  if (ownerCount === 0) {
    errors.push({
      resourceId,
      type: "MISSING_BENEFICIAL_OWNER",
      reason: "At least one beneficial owner (POST /beneficial-owners) is required for verification.",
    });
  }
  return errors;
}

interface Decision {
  status: VerificationStatus;
  errors: VerificationError[];
  /** The customer's new kycStatus; absent leaves it as it was. */
  kycStatus?: KycStatus;
}

function resolved(kycStatus: "PENDING" | "APPROVED" | "REJECTED"): Decision {
  return { status: kycStatus === "PENDING" ? "PENDING_MANUAL_REVIEW" : kycStatus, errors: [], kycStatus };
}

/** What a submission does to a customer whose row the caller has locked (conventions §2.1, decisions-kyc.md). */
async function decide(tx: Tx, platform: PlatformRow, customer: CustomerRow): Promise<Decision> {
  // APPROVED and REJECTED are final: the submission is recorded with that status and changes nothing.
  if (isTerminalKyc(customer.kyc_status)) {
    return { status: customer.kyc_status as "APPROVED" | "REJECTED", errors: [] };
  }
  const sandbox = platform.environment === "SANDBOX";
  const owners = customer.customer_type === "BUSINESS" ? await ownersOf(tx, customer.id) : [];
  const suffix = decidingSuffix(
    customer,
    owners.map((owner) => owner.personal_info.lastName),
  );
  if (
    sandbox &&
    platform.sandbox_skip_verification_paperwork &&
    customer.customer_type === "BUSINESS" &&
    !(await store.hasVerifications(tx, customer.id))
  ) {
    const outcome = skipPaperworkOutcome(suffix);
    if (outcome) return resolved(outcome);
  }
  const errors = packetErrors(customer, await store.documentTypesOf(tx, customer.id), owners.length);
  if (errors.length > 0) return { status: "RESOLVE_ERRORS", errors };
  // Without a KYC provider a production packet waits for manual review.
  return resolved(sandbox ? packetOutcome(suffix) : "PENDING");
}

/**
 * `POST /verifications`: records a submission and moves the customer's kycStatus, in one transaction
 * with the customer row locked so concurrent submissions and renames are serialized.
 */
export async function submitVerification(
  deps: Deps,
  caller: Caller,
  input: CreateVerificationBody,
): Promise<Verification> {
  return deps.db.transaction(async (tx) => {
    const customer = await findActiveCustomerOrThrow(tx, caller, input.customerId);
    const platform = await findPlatform(tx, caller.platformId);
    if (!platform) throw new ApiError("PLATFORM_NOT_FOUND");
    const decision = await decide(tx, platform, customer);
    const now = nowFor(deps, caller);
    const row: store.VerificationRow = {
      id: newId("Verification"),
      platform_id: caller.platformId,
      customer_id: customer.id,
      status: decision.status,
      errors: decision.errors,
      created_at: now,
      updated_at: now,
    };
    await store.insertVerification(tx, row);
    const verification = toVerification(row);
    // Events go through the outbox in this transaction: they commit with the change or not at all.
    await emitVerificationCreated(tx, { platformId: caller.platformId, verification, now });
    if (decision.kycStatus !== undefined && decision.kycStatus !== customer.kyc_status) {
      const updated = { ...customer, kyc_status: decision.kycStatus, updated_at: now };
      await updateCustomer(tx, updated);
      // A business's owners were checked with it: they take its new status.
      if (customer.customer_type === "BUSINESS")
        await setOwnersKycStatus(tx, customer.id, decision.kycStatus, now);
      await emitKycStatusChange(tx, {
        platformId: caller.platformId,
        previous: customer.kyc_status,
        customer: await loadCustomer(tx, updated),
        now,
      });
    }
    return verification;
  });
}

/** Reads a verification of the caller's platform; malformed, foreign or unknown ids are `404 VERIFICATION_NOT_FOUND`. */
export async function getVerification(deps: Deps, caller: Caller, rawId: string): Promise<Verification> {
  const id = parseId("Verification", rawId);
  const row = id ? await store.findVerification(deps.db, caller.platformId, id) : undefined;
  if (!row) throw new ApiError("VERIFICATION_NOT_FOUND", { reason: `No verification ${rawId}.` });
  return toVerification(row);
}

export async function listVerifications(
  deps: Deps,
  caller: Caller,
  filters: { customerId?: string | undefined; verificationStatus?: VerificationStatus | undefined },
  page: store.PageInput,
): Promise<PageResult<Verification>> {
  const result = await store.listVerifications(deps.db, caller.platformId, filters, page);
  return { ...result, data: result.data.map(toVerification) };
}
