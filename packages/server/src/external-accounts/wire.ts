import { accountRails } from "../rails/account-rails.js";
import type { ExternalAccount } from "./schemas.js";
import type { ExternalAccountRow } from "./store.js";

/**
 * A bank account's `accountInfo` with the hosted API's `paymentRails`: the rails of its corridor that can pay
 * it (rails/account-rails.ts), computed at each read so the corridor table stays the one source.
 */
function withPaymentRails(row: ExternalAccountRow): ExternalAccountRow["account_info"] {
  const paymentRails = accountRails(row.currency, { ...row.account_info, accountType: row.account_type });
  return paymentRails.length === 0 ? row.account_info : { ...row.account_info, paymentRails };
}

/** The wire ExternalAccount of a stored row. */
export function toExternalAccount(row: ExternalAccountRow): ExternalAccount {
  const account: ExternalAccount = {
    id: row.id,
    status: row.status as ExternalAccount["status"],
    currency: row.currency,
    accountInfo: withPaymentRails(row),
    defaultUmaDepositAccount: row.default_uma_deposit_account,
    beneficiaryTrustStatus: row.trusted_at ? "TRUSTED" : "UNTRUSTED",
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.customer_id !== null) account.customerId = row.customer_id;
  if (row.platform_account_id !== null) account.platformAccountId = row.platform_account_id;
  if (row.ownership_type !== null)
    account.ownershipType = row.ownership_type as "FIRST_PARTY" | "THIRD_PARTY";
  if (row.bank_validation) account.bankValidation = row.bank_validation;
  return account;
}
