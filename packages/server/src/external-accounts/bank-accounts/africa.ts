import { type TObject, Type } from "typebox";
import { StringEnum } from "../../core/http/schemas.js";
import { StandardBeneficiary } from "./beneficiaries.js";
import { type CountryOf, iban, nubanAccountNumber, phone } from "./checks.js";
import { AccountNumber, accountType, BankName, object, Pattern, Phone, Provider } from "./fields.js";
import type { BankAccountSpec } from "./spec.js";

// Africa: mobile money wallets (a phone number at a provider) and bank accounts.

/** A mobile money account of one corridor, as the hosted `<Ccy>ExternalAccountCreateInfo`. */
const mobileMoney = <const T extends string>(name: T, phoneNumber = Phone) =>
  object({
    accountType: accountType(name),
    phoneNumber,
    provider: Provider,
    beneficiary: StandardBeneficiary,
  });

export const BwpAccountInfo = mobileMoney("BWP_ACCOUNT");
export const KesAccountInfo = mobileMoney("KES_ACCOUNT", Pattern("^\\+254[0-9]{9}$"));
export const MwkAccountInfo = mobileMoney("MWK_ACCOUNT");
export const RwfAccountInfo = mobileMoney("RWF_ACCOUNT", Pattern("^\\+250[0-9]{9}$"));
export const TzsAccountInfo = mobileMoney("TZS_ACCOUNT", Pattern("^\\+255[0-9]{9}$"));
export const UgxAccountInfo = mobileMoney("UGX_ACCOUNT");
export const ZmwAccountInfo = mobileMoney("ZMW_ACCOUNT", Pattern("^\\+260[0-9]{9}$"));

/** Central African CFA franc: Cameroon or Congo, named by `region`. */
export const XafAccountInfo = object({
  accountType: accountType("XAF_ACCOUNT"),
  phoneNumber: Phone,
  provider: Provider,
  region: StringEnum(["CM", "CG"]),
  beneficiary: StandardBeneficiary,
});

/** West African CFA franc: Benin, Côte d'Ivoire, Senegal or Togo, named by `region`. */
export const XofAccountInfo = object({
  accountType: accountType("XOF_ACCOUNT"),
  phoneNumber: Phone,
  provider: Provider,
  region: StringEnum(["BJ", "CI", "SN", "TG"]),
  beneficiary: StandardBeneficiary,
});

export const EgpAccountInfo = object({
  accountType: accountType("EGP_ACCOUNT"),
  iban: Type.Optional(Pattern("^EG[0-9]{27}$")),
  bankName: BankName,
  phoneNumber: Type.Optional(Phone),
  beneficiary: StandardBeneficiary,
});

export const GhsAccountInfo = object({
  accountType: accountType("GHS_ACCOUNT"),
  accountNumber: Type.Optional(AccountNumber),
  bankName: BankName,
  phoneNumber: Type.Optional(Phone),
  beneficiary: StandardBeneficiary,
});

export const NgnAccountInfo = object({
  accountType: accountType("NGN_ACCOUNT"),
  accountNumber: Pattern("^[0-9]{10}$"),
  bankName: BankName,
  beneficiary: StandardBeneficiary,
});

export const ZarAccountInfo = object({
  accountType: accountType("ZAR_ACCOUNT"),
  accountNumber: Pattern("^[0-9]{9,13}$"),
  bankName: BankName,
  beneficiary: StandardBeneficiary,
});

/** The spec of a mobile money account type: the phone number is the account, a mobile number of `country`. */
const mobile = <S extends TObject>(schema: S, currency: string, country: CountryOf) =>
  ({
    schema,
    currency,
    bank: [],
    number: ["phoneNumber"],
    checks: { phoneNumber: phone(country, { mobile: true }) },
    validation: "SANDBOX_SUFFIX",
  }) as const satisfies BankAccountSpec;

export const africaAccounts = [
  mobile(BwpAccountInfo, "BWP", "BW"),
  mobile(KesAccountInfo, "KES", "KE"),
  mobile(MwkAccountInfo, "MWK", "MW"),
  mobile(RwfAccountInfo, "RWF", "RW"),
  mobile(TzsAccountInfo, "TZS", "TZ"),
  mobile(UgxAccountInfo, "UGX", "UG"),
  mobile(ZmwAccountInfo, "ZMW", "ZM"),
  mobile(XafAccountInfo, "XAF", (info) => info.region),
  mobile(XofAccountInfo, "XOF", (info) => info.region),
  {
    schema: EgpAccountInfo,
    currency: "EGP",
    bank: [],
    number: ["iban", "phoneNumber"],
    requires: [["iban"], ["phoneNumber"]],
    checks: { iban: iban(), phoneNumber: phone("EG", { mobile: true }) },
    validation: "SANDBOX_SUFFIX",
  },
  {
    schema: GhsAccountInfo,
    currency: "GHS",
    bank: [],
    number: ["accountNumber", "phoneNumber"],
    requires: [["accountNumber"], ["phoneNumber"]],
    checks: { phoneNumber: phone("GH", { mobile: true }) },
    validation: "SANDBOX_SUFFIX",
  },
  {
    schema: NgnAccountInfo,
    currency: "NGN",
    bank: [],
    number: ["accountNumber"],
    checks: { accountNumber: nubanAccountNumber },
    validation: "SANDBOX_SUFFIX",
  },
  {
    schema: ZarAccountInfo,
    currency: "ZAR",
    bank: [],
    number: ["accountNumber"],
    validation: "SANDBOX_SUFFIX",
  },
] as const satisfies readonly BankAccountSpec[];
