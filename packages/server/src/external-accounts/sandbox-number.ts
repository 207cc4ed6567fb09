import { bankAccountSpec } from "./bank-accounts/table.js";
import type { ExternalAccountRow } from "./store.js";

/**
 * The number whose last three digits pick a sandbox outcome (conventions §3.6): a bank account's number
 * (the first of its type's number fields present: accountNumber, iban, clabe, pixKey…), or a wallet's
 * address.
 */
export function sandboxNumberOf(external: ExternalAccountRow): string {
  const info = external.account_info;
  const field = bankAccountSpec(external.account_type)?.number.find((name) => typeof info[name] === "string");
  const value = field === undefined ? (info.accountNumber ?? info.address) : info[field];
  return typeof value === "string" ? value : "";
}
