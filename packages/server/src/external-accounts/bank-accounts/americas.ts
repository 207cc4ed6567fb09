import { Type } from "typebox";
import { StringEnum } from "../../core/http/schemas.js";
import {
  beneficiaryOf,
  CadIndividualBeneficiary,
  CopIndividualBeneficiary,
  IndividualBeneficiaryWithAddressAndPhone,
  IndividualBeneficiaryWithPhone,
  StandardBeneficiary,
} from "./beneficiaries.js";
import { brazilianTaxId, clabeNumber, phone, pixKey } from "./checks.js";
import {
  AccountNumber,
  accountType,
  BankAccountType,
  BankName,
  BranchCode,
  object,
  Pattern,
  Phone,
  Text,
} from "./fields.js";
import type { BankAccountSpec } from "./spec.js";

// Latin America, the Caribbean and Canada (USD_ACCOUNT: usd.ts).

export const BrlAccountInfo = object({
  accountType: accountType("BRL_ACCOUNT"),
  pixKey: Text(77),
  pixKeyType: StringEnum(["CPF", "CNPJ", "EMAIL", "PHONE", "RANDOM"]),
  taxId: Pattern("^[0-9]{11,14}$"),
  beneficiary: StandardBeneficiary,
});

export const CadAccountInfo = object({
  accountType: accountType("CAD_ACCOUNT"),
  bankCode: Pattern("^[0-9]{3}$"),
  branchCode: BranchCode,
  accountNumber: Pattern("^[0-9]{7,12}$"),
  beneficiary: beneficiaryOf(CadIndividualBeneficiary),
});

export const CopAccountInfo = object({
  accountType: accountType("COP_ACCOUNT"),
  accountNumber: Type.Optional(AccountNumber),
  bankAccountType: Type.Optional(BankAccountType),
  bankName: BankName,
  phoneNumber: Type.Optional(Phone),
  beneficiary: beneficiaryOf(CopIndividualBeneficiary),
});

export const GtqAccountInfo = object({
  accountType: accountType("GTQ_ACCOUNT"),
  accountNumber: AccountNumber,
  bankAccountType: BankAccountType,
  bankName: BankName,
  beneficiary: beneficiaryOf(IndividualBeneficiaryWithPhone),
});

export const HtgAccountInfo = object({
  accountType: accountType("HTG_ACCOUNT"),
  phoneNumber: Phone,
  beneficiary: StandardBeneficiary,
});

export const JmdAccountInfo = object({
  accountType: accountType("JMD_ACCOUNT"),
  accountNumber: AccountNumber,
  branchCode: BranchCode,
  bankAccountType: BankAccountType,
  bankName: BankName,
  beneficiary: beneficiaryOf(IndividualBeneficiaryWithAddressAndPhone),
});

export const MxnAccountInfo = object({
  accountType: accountType("MXN_ACCOUNT"),
  clabeNumber: Pattern("^[0-9]{18}$"),
  beneficiary: StandardBeneficiary,
});

/** El Salvador; its legal tender is the US dollar (docs/decisions-corridor-accounts.md). */
export const SlvAccountInfo = object({
  accountType: accountType("SLV_ACCOUNT"),
  bankName: Type.Optional(BankName),
  accountNumber: Type.Optional(AccountNumber),
  bankAccountType: Type.Optional(BankAccountType),
  phoneNumber: Type.Optional(Phone),
  beneficiary: StandardBeneficiary,
});

const accountOrPhone = [["accountNumber"], ["phoneNumber"]] as const;

export const americasAccounts = [
  {
    schema: BrlAccountInfo,
    currency: "BRL",
    bank: [],
    number: ["pixKey"],
    checks: { pixKey, taxId: brazilianTaxId },
    validation: "SANDBOX_SUFFIX",
  },
  {
    schema: CadAccountInfo,
    currency: "CAD",
    bank: ["bankCode", "branchCode"],
    number: ["accountNumber"],
    validation: "SANDBOX_SUFFIX",
  },
  {
    schema: CopAccountInfo,
    currency: "COP",
    bank: [],
    number: ["accountNumber", "phoneNumber"],
    requires: accountOrPhone,
    checks: { phoneNumber: phone("CO", { mobile: true }) },
    validation: "SANDBOX_SUFFIX",
  },
  {
    schema: GtqAccountInfo,
    currency: "GTQ",
    bank: [],
    number: ["accountNumber"],
    validation: "SANDBOX_SUFFIX",
  },
  {
    schema: HtgAccountInfo,
    currency: "HTG",
    bank: [],
    number: ["phoneNumber"],
    checks: { phoneNumber: phone("HT", { mobile: true }) },
    validation: "SANDBOX_SUFFIX",
  },
  {
    schema: JmdAccountInfo,
    currency: "JMD",
    bank: ["branchCode"],
    number: ["accountNumber"],
    validation: "SANDBOX_SUFFIX",
  },
  {
    schema: MxnAccountInfo,
    currency: "MXN",
    bank: [],
    number: ["clabeNumber"],
    checks: { clabeNumber },
    validation: "SANDBOX_SUFFIX",
  },
  {
    schema: SlvAccountInfo,
    currency: "USD",
    bank: [],
    number: ["accountNumber", "phoneNumber"],
    requires: accountOrPhone,
    checks: { phoneNumber: phone("SV", { mobile: true }) },
    validation: "SANDBOX_SUFFIX",
  },
] as const satisfies readonly BankAccountSpec[];
