import { Type } from "typebox";
import { StandardBeneficiary } from "./beneficiaries.js";
import { bic, iban, ibanCountry, ukAccountNumber } from "./checks.js";
import { AnyIban, accountType, object, Pattern, SwiftCode } from "./fields.js";
import type { BankAccountSpec } from "./spec.js";

// Europe: SEPA (EUR, DKK) and Faster Payments (GBP).

export const DkkAccountInfo = object({
  accountType: accountType("DKK_ACCOUNT"),
  iban: Pattern("^DK[0-9]{16}$"),
  swiftCode: Type.Optional(SwiftCode),
  beneficiary: StandardBeneficiary,
});

export const EurAccountInfo = object({
  accountType: accountType("EUR_ACCOUNT"),
  iban: AnyIban,
  swiftCode: Type.Optional(SwiftCode),
  beneficiary: StandardBeneficiary,
});

export const GbpAccountInfo = object({
  accountType: accountType("GBP_ACCOUNT"),
  sortCode: Pattern("^[0-9]{6}$"),
  accountNumber: Pattern("^[0-9]{8}$"),
  beneficiary: StandardBeneficiary,
});

export const europeAccounts = [
  {
    schema: DkkAccountInfo,
    currency: "DKK",
    bank: [],
    number: ["iban"],
    checks: { iban: iban(), swiftCode: bic("DK") },
    validation: "SANDBOX_SUFFIX",
  },
  {
    schema: EurAccountInfo,
    currency: "EUR",
    bank: [],
    number: ["iban"],
    // SEPA and SEPA_INSTANT are the only EUR rails: the IBAN is of a SEPA country, the BIC of the IBAN's.
    checks: { iban: iban({ sepa: true }), swiftCode: bic(ibanCountry) },
    validation: "SANDBOX_SUFFIX",
  },
  {
    schema: GbpAccountInfo,
    currency: "GBP",
    bank: ["sortCode"],
    number: ["accountNumber"],
    checks: { accountNumber: ukAccountNumber },
    validation: "SANDBOX_SUFFIX",
  },
] as const satisfies readonly BankAccountSpec[];
