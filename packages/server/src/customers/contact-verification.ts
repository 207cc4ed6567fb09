import type { Static } from "typebox";
import type { ContactVerification } from "./schemas.js";
import type { ContactProofRow, CustomerRow } from "./store.js";

/**
 * Customer `region`s whose customers need strong customer authentication and contact verification: the
 * EEA (PSD2 RTS) and the United Kingdom (its onshored RTS). Kept here, not in src/sca, because the
 * Customer's `contactVerification` depends on it and customers must not import sca (sca imports customers).
 */
export const SCA_REGIONS: ReadonlySet<string> = new Set([
  ...["AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV"],
  ...["LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE", "IS", "LI", "NO", "GB"],
]);

/** Whether the customer's `region` is one that requires SCA and contact verification (no region: it does not). */
export function requiresSca(customer: Pick<CustomerRow, "profile">): boolean {
  const region = customer.profile.region;
  return typeof region === "string" && SCA_REGIONS.has(region.toUpperCase());
}

/**
 * The Customer's `contactVerification`: absent outside the SCA regions; otherwise one entry per contact
 * value the customer has, `VERIFIED` when it is the value last proven (src/sca/contact-verification.ts),
 * else `PENDING`, so a changed e-mail or phone reads `PENDING` again.
 */
export function contactVerificationOf(
  row: CustomerRow,
  proofs: ContactProofRow[],
): Static<typeof ContactVerification> | undefined {
  if (!requiresSca(row)) return undefined;
  const proof = proofs.find((p) => p.customer_id === row.id);
  const { email, phoneNumber } = row.profile;
  const status: Static<typeof ContactVerification> = {};
  if (typeof email === "string") status.email = proof?.verified_email === email ? "VERIFIED" : "PENDING";
  if (typeof phoneNumber === "string") {
    status.phone = proof?.verified_phone === phoneNumber ? "VERIFIED" : "PENDING";
  }
  return status;
}

/** The proofs `contactVerificationOf` needs for `rows` (none read for customers outside the regions). */
export function needingProofs(rows: CustomerRow[]): string[] {
  return rows.filter(requiresSca).map((row) => row.id);
}
