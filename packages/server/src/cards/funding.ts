import type { Tx } from "../core/db/db.js";
import { ApiError, type FieldError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { sandboxSuffix } from "../core/ids.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";

/**
 * Checks a card's funding sources (conventions §6.2, §1.7): each must exist on the platform (else
 * `404 ACCOUNT_NOT_FOUND`), and be the cardholder's own ACTIVE fiat account in one currency (else
 * `400 FUNDING_SOURCE_INELIGIBLE`, one FieldError per source). Returns the card's currency.
 */
export async function checkFundingSources(
  tx: Tx,
  caller: Caller,
  cardholderId: string,
  rawIds: string[],
): Promise<string> {
  const accounts: InternalAccountRow[] = [];
  for (const rawId of rawIds) accounts.push(await findAccountOrThrow(tx, caller, rawId));
  const currency = accounts[0]?.currency ?? "USD";
  const errors: FieldError[] = [];
  accounts.forEach((account, i) => {
    const problem = ineligibility(account, cardholderId, currency);
    if (problem) errors.push({ field: `fundingSources[${i}]`, message: problem });
  });
  if (errors.length > 0) {
    throw new ApiError("FUNDING_SOURCE_INELIGIBLE", {
      reason: `Funding source ${errors[0]?.field} ${errors[0]?.message}.`,
      details: { errors },
    });
  }
  return currency;
}

function ineligibility(account: InternalAccountRow, cardholderId: string, currency: string): string | null {
  if (account.customer_id !== cardholderId) return "is not an account of the cardholder";
  if (account.type !== "INTERNAL_FIAT" || account.role !== "STANDARD")
    return "is not the cardholder's own fiat account";
  if (account.currency !== currency) return `is in ${account.currency}, not ${currency}`;
  if (account.status !== "ACTIVE") return `is ${account.status}, not ACTIVE`;
  // Sandbox magic suffixes (conventions §6.5); generated ids never end like this.
  if (["002", "003"].includes(sandboxSuffix(account.id))) return "is ineligible (sandbox suffix)";
  return null;
}
