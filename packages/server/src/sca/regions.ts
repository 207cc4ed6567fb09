import type { Executor, Tx } from "../core/db/db.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { requiresSca } from "../customers/contact-verification.js";
import { findActiveCustomerOrThrow, findCustomerOrThrow } from "../customers/customers.js";
import type { CustomerRow } from "../customers/store.js";

// The regions themselves (EEA and GB, docs/decisions.md) are `SCA_REGIONS` in customers/contact-verification.ts:
// the Customer's `contactVerification` depends on them too.

/** The `409 CONFLICT` of every SCA and contact-verification endpoint for a customer outside those regions. */
export function outsideScaRegions(customer: Pick<CustomerRow, "id" | "profile">): ApiError {
  const region = typeof customer.profile.region === "string" ? customer.profile.region : "none";
  return new ApiError("CONFLICT", {
    reason: `Customer ${customer.id} (region ${region}) is not in a region that requires strong customer authentication.`,
  });
}

/** A customer of the caller's platform in an SCA region: 404 unknown, 409 deleted or outside the regions. */
export async function findScaCustomerOrThrow(tx: Tx, caller: Caller, rawId: string): Promise<CustomerRow> {
  const customer = await findActiveCustomerOrThrow(tx, caller, rawId);
  if (!requiresSca(customer)) throw outsideScaRegions(customer);
  return customer;
}

/** Like findScaCustomerOrThrow without the lock, and a deleted customer is still found. */
export async function readScaCustomerOrThrow(
  db: Executor,
  caller: Caller,
  rawId: string,
): Promise<CustomerRow> {
  const customer = await findCustomerOrThrow(db, caller, rawId);
  if (!requiresSca(customer)) throw outsideScaRegions(customer);
  return customer;
}
