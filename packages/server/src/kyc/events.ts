import type { Tx } from "../core/db/db.js";
import { enqueueEvent } from "../webhooks/outbox.js";
import type { Verification } from "./schemas.js";

/** Enqueues VERIFICATION.<status> for a newly created verification, in the caller's transaction. */
export async function emitVerificationCreated(
  tx: Tx,
  event: { platformId: string; verification: Verification; now: Date },
): Promise<void> {
  await enqueueEvent(tx, {
    platformId: event.platformId,
    type: `VERIFICATION.${event.verification.verificationStatus}`,
    data: event.verification,
    now: event.now,
  });
}
