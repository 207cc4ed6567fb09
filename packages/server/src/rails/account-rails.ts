import { railsFor } from "./corridors.js";
import type { PaymentRail } from "./payment-rails.js";

/*
 * Which rails of a corridor can pay a given external account, from its fields, and which of them the
 * account shows as `paymentRails` (docs/guides/rails.md "Choosing the rail").
 */

/**
 * Rails that no account schema of the hosted API lists in its `paymentRails`: the local schemes behind
 * a generic BANK_TRANSFER (PH, CO), CIPS and UNIONPAY. A corridor may serve and pin them, but an external
 * account does not show them (`accountRails`).
 */
const unlistedRails: ReadonlySet<PaymentRail> = new Set([
  "ACH_COLOMBIA",
  "BRE_B",
  "CIPS",
  "INSTAPAY",
  "PESONET",
  "UNIONPAY",
]);

/**
 * Account fields a rail pays to, where the account type makes them optional: any one of the groups,
 * each group all present. Rails not named here pay to fields their account schemas require.
 */
export const railFields: Partial<Readonly<Record<PaymentRail, readonly (readonly string[])[]>>> = {
  MOBILE_MONEY: [["phoneNumber"]],
  UPI: [["vpa"]],
  NEFT: [["accountNumber", "ifsc"]],
  RTGS: [["accountNumber", "ifsc"]],
  BANK_TRANSFER: [["accountNumber"], ["iban"]],
  SWIFT: [["accountNumber"], ["iban"]],
  BRE_B: [["phoneNumber"], ["accountNumber"]],
  ACH_COLOMBIA: [["accountNumber"]],
  CIPS: [["accountNumber"]],
  UNIONPAY: [["accountNumber"]],
};

/** An external account's type and fields (the `accountInfo` of the hosted API). */
export type AccountFields = { accountType: string } & Record<string, unknown>;

const present = (value: unknown) => typeof value === "string" && value.length > 0;

/** Whether an account has the fields `rail` pays to. */
export function hasRailFields(rail: PaymentRail, account: AccountFields): boolean {
  const groups = railFields[rail];
  return groups === undefined || groups.some((group) => group.every((field) => present(account[field])));
}

/** The rails of `currency` that can pay this account (type and fields), in order of preference. */
export function usableRails(currency: string, account: AccountFields): PaymentRail[] {
  return railsFor(currency, account.accountType).filter((rail) => hasRailFields(rail, account));
}

/**
 * The `paymentRails` an external account shows: the rails that can pay it, less those the hosted
 * account schemas never list (INSTAPAY, PESONET, BRE_B, ACH_COLOMBIA, CIPS, UNIONPAY).
 */
export function accountRails(currency: string, account: AccountFields): PaymentRail[] {
  return usableRails(currency, account).filter((rail) => !unlistedRails.has(rail));
}
