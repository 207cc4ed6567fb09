import type { Static } from "typebox";
import type { Tx } from "../core/db/db.js";
import { type EventType, enqueueEvent } from "../webhooks/outbox.js";
import type { Customer } from "./schemas.js";

/**
 * The CUSTOMER.* event for a kycStatus (conventions §7.4): KYC_* for individuals, KYB_* for businesses.
 * UNVERIFIED and HOLD have no event type, so a change to them emits nothing.
 */
export function customerKycEventType(
  customerType: "INDIVIDUAL" | "BUSINESS",
  kycStatus: string,
): EventType | null {
  if (kycStatus !== "APPROVED" && kycStatus !== "REJECTED" && kycStatus !== "PENDING") return null;
  return `CUSTOMER.${customerType === "BUSINESS" ? "KYB" : "KYC"}_${kycStatus}`;
}

/**
 * Enqueues the CUSTOMER.* event for a kycStatus change, in the caller's transaction, with the post-change
 * Customer as data. No event when the status did not change.
 */
export async function emitKycStatusChange(
  tx: Tx,
  change: { platformId: string; previous: string; customer: Static<typeof Customer>; now: Date },
): Promise<void> {
  if (change.customer.kycStatus === change.previous) return;
  const type = customerKycEventType(change.customer.customerType, change.customer.kycStatus);
  if (!type) return;
  await enqueueEvent(tx, { platformId: change.platformId, type, data: change.customer, now: change.now });
}
