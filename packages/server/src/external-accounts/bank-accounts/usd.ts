import { Type } from "typebox";
import type { FieldError } from "../../core/errors/api-error.js";
import { StringEnum } from "../../core/http/schemas.js";
import { accountType, BankAccountType, Country, object, Text } from "./fields.js";
import type { BankAccountSpec } from "./spec.js";

/**
 * The beneficiary of USD accounts and wallets (conventions §4.1); which fields are required depends on
 * `beneficiaryType` and is checked by checkBeneficiary (docs/decisions.md "External bank accounts").
 */
export const Beneficiary = object({
  beneficiaryType: StringEnum(["INDIVIDUAL", "BUSINESS"]),
  fullName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  countryOfResidence: Type.Optional(Country),
  birthDate: Type.Optional(Type.String({ format: "date" })),
  nationality: Type.Optional(Country),
  legalName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  countryOfIncorporation: Type.Optional(Country),
  registrationNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});

/**
 * USD bank account details (conventions §4.1: `bankAccountType` required, ABA checksum), with the hosted
 * UsdExternalAccountCreateInfo's optional intermediary-bank and wire fields.
 */
export const UsdAccountInfo = object({
  accountType: accountType("USD_ACCOUNT"),
  accountNumber: Type.String({ pattern: "^[0-9]{1,34}$" }),
  routingNumber: Type.String({ format: "aba-routing-number" }),
  bankAccountType: BankAccountType,
  bankName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  intermediaryBankName: Type.Optional(Text(140)),
  intermediaryRoutingNumber: Type.Optional(Type.String({ format: "aba-routing-number" })),
  fiToFiInformation: Type.Optional(Type.String({ maxLength: 210 })),
  beneficiary: Beneficiary,
});

/** The fields an INDIVIDUAL or BUSINESS beneficiary of a USD account or a wallet must have. */
export function checkBeneficiary(beneficiary: Record<string, unknown>): FieldError[] {
  const required =
    beneficiary.beneficiaryType === "INDIVIDUAL"
      ? ["fullName", "countryOfResidence"]
      : ["legalName", "countryOfIncorporation"];
  return required
    .filter((field) => beneficiary[field] === undefined)
    .map((field) => ({
      field: `accountInfo.beneficiary.${field}`,
      message: `is required for a ${beneficiary.beneficiaryType} beneficiary`,
    }));
}

export const usdAccounts = [
  {
    schema: UsdAccountInfo,
    currency: "USD",
    bank: ["routingNumber"],
    number: ["accountNumber"],
    validation: "MICRO_ENTRIES",
    rules: (info) => checkBeneficiary(info.beneficiary as Record<string, unknown>),
  },
] as const satisfies readonly BankAccountSpec[];
