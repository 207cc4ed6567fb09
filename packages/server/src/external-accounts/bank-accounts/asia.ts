import { Type } from "typebox";
import type { FieldError } from "../../core/errors/api-error.js";
import { beneficiaryOf, IndividualBeneficiaryWithAddress, StandardBeneficiary } from "./beneficiaries.js";
import { bic, iban, phone } from "./checks.js";
import {
  AccountNumber,
  accountType,
  BankName,
  BranchCode,
  object,
  Pattern,
  Phone,
  SwiftCode,
  Text,
} from "./fields.js";
import type { BankAccountSpec, Info } from "./spec.js";

// Asia and the Middle East.

export const AedAccountInfo = object({
  accountType: accountType("AED_ACCOUNT"),
  iban: Pattern("^AE[0-9]{21}$"),
  swiftCode: Type.Optional(SwiftCode),
  beneficiary: beneficiaryOf(IndividualBeneficiaryWithAddress),
});

export const BdtAccountInfo = object({
  accountType: accountType("BDT_ACCOUNT"),
  accountNumber: Type.Optional(AccountNumber),
  bankName: BankName,
  branchCode: Type.Optional(BranchCode),
  swiftCode: Type.Optional(SwiftCode),
  phoneNumber: Type.Optional(Phone),
  beneficiary: StandardBeneficiary,
});

export const CnyAccountInfo = object({
  accountType: accountType("CNY_ACCOUNT"),
  accountNumber: Type.Optional(AccountNumber),
  bankName: BankName,
  phoneNumber: Type.Optional(Phone),
  beneficiary: StandardBeneficiary,
});

/** An account at a bank named by its BIC (HKD, MYR, THB, VND; SGD without a required bank name). */
const swiftBank = <const T extends string>(name: T) =>
  object({
    accountType: accountType(name),
    bankName: BankName,
    accountNumber: AccountNumber,
    swiftCode: SwiftCode,
    beneficiary: StandardBeneficiary,
  });

export const HkdAccountInfo = swiftBank("HKD_ACCOUNT");
export const MyrAccountInfo = swiftBank("MYR_ACCOUNT");
export const ThbAccountInfo = swiftBank("THB_ACCOUNT");
export const VndAccountInfo = swiftBank("VND_ACCOUNT");

export const SgdAccountInfo = object({
  accountType: accountType("SGD_ACCOUNT"),
  bankName: Type.Optional(BankName),
  accountNumber: AccountNumber,
  swiftCode: SwiftCode,
  beneficiary: StandardBeneficiary,
});

export const IdrAccountInfo = object({
  accountType: accountType("IDR_ACCOUNT"),
  bankName: BankName,
  accountNumber: AccountNumber,
  swiftCode: SwiftCode,
  phoneNumber: Pattern("^\\+62[0-9]{9,12}$"),
  beneficiary: StandardBeneficiary,
});

export const InrAccountInfo = object({
  accountType: accountType("INR_ACCOUNT"),
  vpa: Type.Optional(
    Type.String({ pattern: "^[a-zA-Z0-9.\\-_]+@[a-zA-Z0-9]+$", minLength: 3, maxLength: 255 }),
  ),
  accountNumber: Type.Optional(Pattern("^[0-9]{9,18}$")),
  // IFSC: 4 letters (the bank), 0, 6 letters or digits (the branch); RBI defines no check digit.
  ifsc: Type.Optional(Pattern("^[A-Z]{4}0[A-Z0-9]{6}$")),
  rail: Type.Optional(Text(32)),
  bankName: Type.Optional(BankName),
  beneficiary: StandardBeneficiary,
});

export const PhpAccountInfo = object({
  accountType: accountType("PHP_ACCOUNT"),
  bankName: BankName,
  accountNumber: Pattern("^[0-9]{8,16}$"),
  beneficiary: StandardBeneficiary,
});

export const PkrAccountInfo = object({
  accountType: accountType("PKR_ACCOUNT"),
  bankName: BankName,
  accountNumber: Type.Optional(AccountNumber),
  iban: Type.Optional(Pattern("^PK[0-9]{2}[A-Z]{4}[0-9]{16}$")),
  phoneNumber: Type.Optional(Phone),
  beneficiary: StandardBeneficiary,
});

/** INR `rail`: one of the corridor's rails, and one the account's details can be paid over. */
function inrRail(info: Info): FieldError[] {
  const rail = info.rail;
  if (rail === undefined) return [];
  if (rail !== "UPI" && rail !== "NEFT" && rail !== "RTGS")
    return [
      {
        field: "accountInfo.rail",
        constraint: { enum: ["UPI", "NEFT", "RTGS"] },
        message: "must be one of UPI, NEFT, RTGS",
      },
    ];
  const payable = rail === "UPI" ? info.vpa !== undefined : info.accountNumber !== undefined;
  return payable
    ? []
    : [
        {
          field: "accountInfo.rail",
          message: rail === "UPI" ? "UPI needs vpa" : `${rail} needs accountNumber and ifsc`,
        },
      ];
}

const swiftBankSpec = <S extends BankAccountSpec["schema"]>(schema: S, currency: string, country: string) =>
  ({
    schema,
    currency,
    bank: ["swiftCode"],
    number: ["accountNumber"],
    checks: { swiftCode: bic(country) },
    validation: "SANDBOX_SUFFIX",
  }) as const satisfies BankAccountSpec;

const accountOrPhone = [["accountNumber"], ["phoneNumber"]] as const;

export const asiaAccounts = [
  {
    schema: AedAccountInfo,
    currency: "AED",
    bank: [],
    number: ["iban"],
    checks: { iban: iban(), swiftCode: bic("AE") },
    validation: "SANDBOX_SUFFIX",
  },
  {
    schema: BdtAccountInfo,
    currency: "BDT",
    bank: [],
    number: ["accountNumber", "phoneNumber"],
    requires: accountOrPhone,
    checks: { swiftCode: bic("BD"), phoneNumber: phone("BD", { mobile: true }) },
    validation: "SANDBOX_SUFFIX",
  },
  {
    schema: CnyAccountInfo,
    currency: "CNY",
    bank: [],
    number: ["accountNumber", "phoneNumber"],
    requires: accountOrPhone,
    checks: { phoneNumber: phone("CN", { mobile: true }) },
    validation: "SANDBOX_SUFFIX",
  },
  swiftBankSpec(HkdAccountInfo, "HKD", "HK"),
  {
    ...swiftBankSpec(IdrAccountInfo, "IDR", "ID"),
    checks: { swiftCode: bic("ID"), phoneNumber: phone("ID") },
  },
  {
    schema: InrAccountInfo,
    currency: "INR",
    bank: ["ifsc"],
    number: ["accountNumber", "vpa"],
    requires: [["vpa"], ["accountNumber", "ifsc"]],
    rules: inrRail,
    validation: "SANDBOX_SUFFIX",
  },
  swiftBankSpec(MyrAccountInfo, "MYR", "MY"),
  {
    schema: PhpAccountInfo,
    currency: "PHP",
    bank: [],
    number: ["accountNumber"],
    validation: "SANDBOX_SUFFIX",
  },
  {
    schema: PkrAccountInfo,
    currency: "PKR",
    bank: [],
    number: ["iban", "accountNumber", "phoneNumber"],
    requires: [["accountNumber"], ["iban"], ["phoneNumber"]],
    checks: { iban: iban(), phoneNumber: phone("PK", { mobile: true }) },
    validation: "SANDBOX_SUFFIX",
  },
  swiftBankSpec(SgdAccountInfo, "SGD", "SG"),
  swiftBankSpec(ThbAccountInfo, "THB", "TH"),
  swiftBankSpec(VndAccountInfo, "VND", "VN"),
] as const satisfies readonly BankAccountSpec[];
