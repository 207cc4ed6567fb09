import { Type } from "typebox";
import { StandardBeneficiary } from "./beneficiaries.js";
import { bic, iban } from "./checks.js";
import { AccountNumber, AnyIban, accountType, BankName, object, SwiftCode } from "./fields.js";
import type { BankAccountSpec } from "./spec.js";

/** An account anywhere, paid over SWIFT, in the currency the request names. */
export const SwiftAccountInfo = object({
  accountType: accountType("SWIFT_ACCOUNT"),
  country: Type.String({ pattern: "^[A-Z]{2}$", format: "iso3166-1-alpha-2" }),
  swiftCode: SwiftCode,
  bankName: BankName,
  accountNumber: Type.Optional(AccountNumber),
  iban: Type.Optional(AnyIban),
  beneficiary: StandardBeneficiary,
});

export const swiftAccounts = [
  {
    schema: SwiftAccountInfo,
    currency: null,
    bank: ["swiftCode"],
    number: ["iban", "accountNumber"],
    requires: [["accountNumber"], ["iban"]],
    checks: { swiftCode: bic(), iban: iban() },
    validation: "SANDBOX_SUFFIX",
  },
] as const satisfies readonly BankAccountSpec[];
