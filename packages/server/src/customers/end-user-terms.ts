import type { Executor } from "../core/db/db.js";
import { ApiError } from "../core/errors/api-error.js";

/**
 * Money moves only for customers with the end-user terms on file (interface, 400 codes: "quotes fail until
 * acceptance is on file"): every customer named must have a `SERVICE_END_USER_TERMS` acceptance, else
 * `400 END_USER_TERMS_NOT_ACCEPTED` naming them. Platform-owned accounts (no customer) need none.
 */
export async function requireEndUserTerms(
  db: Executor,
  customerIds: readonly (string | null | undefined)[],
): Promise<void> {
  const ids = [...new Set(customerIds.filter((id): id is string => typeof id === "string"))];
  if (ids.length === 0) return;
  const accepted = await db.query<{ customer_id: string }>(
    `SELECT DISTINCT customer_id FROM agreement_consents
     WHERE customer_id = ANY($1) AND type = 'SERVICE_END_USER_TERMS'`,
    [ids],
  );
  const missing = ids.filter((id) => !accepted.some((row) => row.customer_id === id));
  if (missing.length > 0)
    throw new ApiError("END_USER_TERMS_NOT_ACCEPTED", {
      reason: `No SERVICE_END_USER_TERMS acceptance is on file for ${missing.join(", ")}; record it in agreementConsents first.`,
      details: { customerIds: missing },
    });
}
