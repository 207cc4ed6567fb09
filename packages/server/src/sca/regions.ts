import type { Executor, Tx } from "../core/db/db.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { findActiveCustomerOrThrow, findCustomerOrThrow } from "../customers/customers.js";
import type { CustomerRow } from "../customers/store.js";

/**
 * Customer `region`s whose customers need strong customer authentication: the EEA (PSD2 RTS) and the
 * United Kingdom (its onshored RTS). docs/decisions/sca.md.
 */
export const SCA_REGIONS: ReadonlySet<string> = new Set([
  ...["AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV"],
  ...["LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE", "IS", "LI", "NO", "GB"],
]);

/** Whether the customer's `region` is one that requires SCA (no region: it does not). */
export function requiresSca(customer: Pick<CustomerRow, "profile">): boolean {
  const region = customer.profile.region;
  return typeof region === "string" && SCA_REGIONS.has(region.toUpperCase());
}

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

/** Read-only variant of findScaCustomerOrThrow (GET endpoints; deleted customers still readable). */
export async function readScaCustomerOrThrow(
  db: Executor,
  caller: Caller,
  rawId: string,
): Promise<CustomerRow> {
  const customer = await findCustomerOrThrow(db, caller, rawId);
  if (!requiresSca(customer)) throw outsideScaRegions(customer);
  return customer;
}
