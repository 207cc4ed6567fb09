import { sandboxSuffix } from "../core/ids.js";

// A customer's kycStatus and the sandbox rules that decide it: here, not in kyc/, because creating a
// customer already applies skip-paperwork (customers.ts), and kyc/ builds on customers, not the reverse.

export type KycStatus = "UNVERIFIED" | "PENDING" | "APPROVED" | "REJECTED" | "HOLD";

/** Sandbox outcome of a complete packet by suffix (conventions §2.1): 001 manual review, 002 rejected, else approved. */
export function packetOutcome(suffix: string): "PENDING" | "APPROVED" | "REJECTED" {
  if (suffix === "001") return "PENDING";
  if (suffix === "002") return "REJECTED";
  return "APPROVED";
}

/** With skip-paperwork on, a terminal suffix resolves without documents; 001 and 003 still need a packet. */
export function skipPaperworkOutcome(suffix: string): "APPROVED" | "REJECTED" | null {
  if (suffix === "001" || suffix === "003") return null;
  return suffix === "002" ? "REJECTED" : "APPROVED";
}

/** APPROVED and REJECTED are final: no rename or resubmission changes them. */
export function isTerminalKyc(status: string): boolean {
  return status === "APPROVED" || status === "REJECTED";
}

/**
 * The suffix that decides a customer's sandbox outcome: `fullName` for an individual; for a business the
 * `registrationNumber`, else the first beneficial owner's `lastName` (`ownerLastNames`, in the order the
 * owners were added; kyc/ reads them) carrying a magic suffix.
 */
export function decidingSuffix(
  customer: { customer_type: "INDIVIDUAL" | "BUSINESS"; profile: Record<string, unknown> },
  ownerLastNames: readonly string[] = [],
): string {
  const profile = customer.profile as { fullName?: string; businessInfo?: { registrationNumber?: string } };
  if (customer.customer_type === "INDIVIDUAL") return sandboxSuffix(profile.fullName);
  const candidates = [profile.businessInfo?.registrationNumber, ...ownerLastNames]
    .filter((value) => value !== undefined)
    .map(sandboxSuffix);
  return candidates.find((suffix) => ["001", "002", "003"].includes(suffix)) ?? candidates[0] ?? "";
}
