import { africaAccounts } from "./africa.js";
import { americasAccounts } from "./americas.js";
import { asiaAccounts } from "./asia.js";
import { europeAccounts } from "./europe.js";
import { accountTypeOf, type BankAccountSpec } from "./spec.js";
import { swiftAccounts } from "./swift.js";
import { usdAccounts } from "./usd.js";

/**
 * Every bank account type (`accountType` of the hosted ExternalAccountType that is not a wallet): the 37
 * currency accounts and SWIFT_ACCOUNT. Adding a corridor's account is one entry in a region file.
 */
const specs = [
  ...usdAccounts,
  ...americasAccounts,
  ...europeAccounts,
  ...africaAccounts,
  ...asiaAccounts,
  ...swiftAccounts,
] as const;

/** The `accountInfo` schemas of the bank account types, for the create body's discriminated union. */
export const bankAccountInfos = specs.map((spec) => spec.schema);

const byType: ReadonlyMap<string, BankAccountSpec> = new Map(
  specs.map((spec) => [accountTypeOf(spec), spec]),
);

/** The bank account types, in table order. */
export const bankAccountTypes: readonly string[] = [...byType.keys()];

/** The spec of a bank account type, or undefined for wallets, Lightning and unknown types. */
export function bankAccountSpec(accountType: string): BankAccountSpec | undefined {
  return byType.get(accountType);
}
