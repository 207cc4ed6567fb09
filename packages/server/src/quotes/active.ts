import { ApiError } from "../core/errors/api-error.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";

/** Money moves only between ACTIVE accounts; any other status is `409 CONFLICT`. */
export function requireActive(account: InternalAccountRow): void {
  if (account.status !== "ACTIVE") {
    throw new ApiError("CONFLICT", {
      reason: `Account ${account.id} is ${account.status}; only ACTIVE accounts send or receive transfers.`,
    });
  }
}
