import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { PageResult } from "../core/http/pagination.js";
import { newId, parseId } from "../core/ids.js";
import { findActiveCustomerOrThrow } from "../customers/customers.js";
import type { CustomerRow } from "../customers/store.js";
import type {
  BeneficialOwner,
  CreateBeneficialOwnerBody,
  UpdateBeneficialOwnerBody,
} from "./beneficial-owner-schemas.js";
import * as store from "./beneficial-owner-store.js";

/** Every character of the tax or id number but the last four becomes `*` (all of it when it is that short). */
export function maskIdentifier(identifier: string): string {
  const shown = identifier.length > 4 ? identifier.slice(-4) : "";
  return "*".repeat(identifier.length - shown.length) + shown;
}

export function toBeneficialOwner(row: store.BeneficialOwnerRow): BeneficialOwner {
  return {
    id: row.id,
    customerId: row.customer_id,
    roles: row.roles as BeneficialOwner["roles"],
    ownershipPercentage: row.ownership_percentage,
    personalInfo: { ...row.personal_info, identifier: maskIdentifier(row.personal_info.identifier) },
    kycStatus: row.kyc_status as BeneficialOwner["kycStatus"],
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const notFound = (rawId: string) => new ApiError("NOT_FOUND", { reason: `No beneficial owner ${rawId}.` });

/** `400` unless the customer is a business: individuals have no beneficial owners. */
function checkBusiness(customer: CustomerRow): void {
  if (customer.customer_type !== "BUSINESS")
    throw invalidField("customerId", "must be a BUSINESS customer: individuals have no beneficial owners");
}

/** `400` when the business's owners would hold more than 100% together (`exceptId`: the owner being changed). */
async function checkTotalOwnership(tx: Tx, customerId: string, percentage: number, exceptId?: string) {
  const others = (await store.ownersOf(tx, customerId)).filter((owner) => owner.id !== exceptId);
  const total = others.reduce((sum, owner) => sum + owner.ownership_percentage, percentage);
  if (total > 100)
    throw invalidField(
      "ownershipPercentage",
      `would bring the business's beneficial owners to ${total}% in total; at most 100`,
    );
}

/**
 * `POST /beneficial-owners`: adds an owner to a business. The customer row is locked, so concurrent
 * additions cannot exceed 100% together and a verification in flight sees the owners before or after.
 */
export async function createBeneficialOwner(
  deps: Deps,
  caller: Caller,
  input: CreateBeneficialOwnerBody,
): Promise<BeneficialOwner> {
  return deps.db.transaction(async (tx) => {
    const customer = await findActiveCustomerOrThrow(tx, caller, input.customerId);
    checkBusiness(customer);
    await checkTotalOwnership(tx, customer.id, input.ownershipPercentage);
    const now = nowFor(deps, caller);
    const row: store.BeneficialOwnerRow = {
      id: newId("BeneficialOwner"),
      platform_id: caller.platformId,
      customer_id: customer.id,
      roles: input.roles,
      ownership_percentage: input.ownershipPercentage,
      personal_info: input.personalInfo,
      // An owner added after the business's verification is checked with the next submission.
      kyc_status: "UNVERIFIED",
      created_at: now,
      updated_at: now,
    };
    await store.insertBeneficialOwner(tx, row);
    return toBeneficialOwner(row);
  });
}

/** Malformed, wrong-prefix, foreign and unknown ids are `404 NOT_FOUND` (conventions §1.3: "anything else"). */
export async function getBeneficialOwner(
  deps: Deps,
  caller: Caller,
  rawId: string,
): Promise<BeneficialOwner> {
  const id = parseId("BeneficialOwner", rawId);
  const row = id ? await store.findBeneficialOwner(deps.db, caller.platformId, id) : undefined;
  if (!row) throw notFound(rawId);
  return toBeneficialOwner(row);
}

/**
 * `PATCH /beneficial-owners/{id}`: merges the given fields (`personalInfo` field by field). It never moves
 * a status: in a sandbox, renaming an owner of an APPROVED or REJECTED business changes nothing.
 */
export async function updateBeneficialOwner(
  deps: Deps,
  caller: Caller,
  rawId: string,
  input: UpdateBeneficialOwnerBody,
): Promise<BeneficialOwner> {
  const id = parseId("BeneficialOwner", rawId);
  const found = id ? await store.findBeneficialOwner(deps.db, caller.platformId, id) : undefined;
  if (!id || !found) throw notFound(rawId);
  return deps.db.transaction(async (tx) => {
    await findActiveCustomerOrThrow(tx, caller, found.customer_id);
    // Read again under the customer's lock: the row may have changed since the first read.
    const current = await store.findBeneficialOwner(tx, caller.platformId, id);
    if (!current) throw notFound(rawId);
    if (input.ownershipPercentage !== undefined)
      await checkTotalOwnership(tx, current.customer_id, input.ownershipPercentage, current.id);
    const row: store.BeneficialOwnerRow = {
      ...current,
      roles: input.roles ?? current.roles,
      ownership_percentage: input.ownershipPercentage ?? current.ownership_percentage,
      personal_info: { ...current.personal_info, ...input.personalInfo },
      updated_at: nowFor(deps, caller),
    };
    await store.updateBeneficialOwner(tx, row);
    return toBeneficialOwner(row);
  });
}

export async function listBeneficialOwners(
  deps: Deps,
  caller: Caller,
  query: { customerId: string; limit?: number | undefined; cursor?: string | undefined },
): Promise<PageResult<BeneficialOwner>> {
  const page = { limit: query.limit ?? 20, cursor: query.cursor };
  const result = await store.listBeneficialOwners(deps.db, caller.platformId, query.customerId, page);
  return { ...result, data: result.data.map(toBeneficialOwner) };
}
