import { numberField } from "./bank-accounts/spec.js";
import { bankAccountSpec } from "./bank-accounts/table.js";
import type { ExternalAccountRow } from "./store.js";

/**
 * The number whose last three digits pick a sandbox outcome (conventions §3.6): a bank account's number
 * (the first of its type's number fields present: accountNumber, iban, clabe, pixKey…), or a wallet's
 * address.
 */
export function sandboxNumberOf(external: ExternalAccountRow): string {
  const info = external.account_info;
  const spec = bankAccountSpec(external.account_type);
  const field = spec && numberField(spec, info);
  const value = field === undefined ? (info.accountNumber ?? info.address) : info[field];
  return typeof value === "string" ? value : "";
}
