/**
 * Bank accounts of every corridor but USD (`USD_ACCOUNT` is in external-accounts.ts), mirroring
 * packages/server/src/external-accounts/bank-accounts/*.ts field for field: the hosted API's
 * `<Ccy>ExternalAccountCreateInfo` schemas. Patterns are noted where the server applies one; the server
 * also checks IBAN and CLABE checksums, BICs, PIX keys, UK modulus, NUBAN and phone numbers
 * (docs/guides/external-accounts.md). Re-exported from external-accounts.ts.
 */

/** The hosted `Address` of a beneficiary. */
export interface BeneficiaryAddress {
  line1: string;
  line2?: string;
  city?: string;
  state?: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/** An individual beneficiary; `countryOfResidence` is required on every corridor (conventions §4.1). */
export interface IndividualBeneficiary {
  beneficiaryType: "INDIVIDUAL";
  fullName: string;
  /** `YYYY-MM-DD`. */
  birthDate?: string;
  nationality?: string;
  email?: string;
  /** E.164. */
  phoneNumber?: string;
  countryOfResidence: string;
  address?: BeneficiaryAddress;
}

/** AED. */
export interface IndividualBeneficiaryWithAddress extends IndividualBeneficiary {
  address: BeneficiaryAddress;
}
/** GTQ. */
export interface IndividualBeneficiaryWithPhone extends IndividualBeneficiary {
  phoneNumber: string;
}
/** JMD. */
export interface IndividualBeneficiaryWithAddressAndPhone extends IndividualBeneficiary {
  address: BeneficiaryAddress;
  phoneNumber: string;
}
/** CAD. */
export interface CadIndividualBeneficiary extends IndividualBeneficiary {
  registrationNumber?: string;
}
/** COP. */
export interface CopIndividualBeneficiary extends IndividualBeneficiary {
  documentType?: "CC" | "CE" | "TI" | "NIT" | "PP";
  documentNumber?: string;
}

/** A business beneficiary: `legalName` required; `countryOfIncorporation` as on USD accounts. */
export interface BusinessBeneficiary {
  beneficiaryType: "BUSINESS";
  legalName: string;
  registrationNumber?: string;
  taxId?: string;
  email?: string;
  phoneNumber?: string;
  countryOfResidence?: string;
  countryOfIncorporation?: string;
  address?: BeneficiaryAddress;
}

/** The beneficiary of a corridor account, told apart by `beneficiaryType`. */
export type CorridorBeneficiary<Individual = IndividualBeneficiary> = Individual | BusinessBeneficiary;

type BankAccountType = "CHECKING" | "SAVINGS";

export interface AedAccountInfo {
  accountType: "AED_ACCOUNT";
  /** `AE` + 21 digits, valid IBAN. */
  iban: string;
  swiftCode?: string;
  beneficiary: CorridorBeneficiary<IndividualBeneficiaryWithAddress>;
}
/** Needs `accountNumber` or `phoneNumber`. */
export interface BdtAccountInfo {
  accountType: "BDT_ACCOUNT";
  accountNumber?: string;
  bankName: string;
  branchCode?: string;
  swiftCode?: string;
  phoneNumber?: string;
  beneficiary: CorridorBeneficiary;
}
export interface BrlAccountInfo {
  accountType: "BRL_ACCOUNT";
  /** Checked as `pixKeyType` says. */
  pixKey: string;
  pixKeyType: "CPF" | "CNPJ" | "EMAIL" | "PHONE" | "RANDOM";
  /** CPF (11 digits) or CNPJ (14). */
  taxId: string;
  beneficiary: CorridorBeneficiary;
}
export interface CadAccountInfo {
  accountType: "CAD_ACCOUNT";
  bankCode: string;
  branchCode: string;
  accountNumber: string;
  beneficiary: CorridorBeneficiary<CadIndividualBeneficiary>;
}
/** Needs `accountNumber` or `phoneNumber`. */
export interface CnyAccountInfo {
  accountType: "CNY_ACCOUNT";
  accountNumber?: string;
  bankName: string;
  phoneNumber?: string;
  beneficiary: CorridorBeneficiary;
}
/** Needs `accountNumber` or `phoneNumber`. */
export interface CopAccountInfo {
  accountType: "COP_ACCOUNT";
  accountNumber?: string;
  bankAccountType?: BankAccountType;
  bankName: string;
  phoneNumber?: string;
  beneficiary: CorridorBeneficiary<CopIndividualBeneficiary>;
}
export interface DkkAccountInfo {
  accountType: "DKK_ACCOUNT";
  iban: string;
  swiftCode?: string;
  beneficiary: CorridorBeneficiary;
}
/** Needs `iban` or `phoneNumber`. */
export interface EgpAccountInfo {
  accountType: "EGP_ACCOUNT";
  iban?: string;
  bankName: string;
  phoneNumber?: string;
  beneficiary: CorridorBeneficiary;
}
/** An IBAN of a SEPA country; `swiftCode` of the same country. */
export interface EurAccountInfo {
  accountType: "EUR_ACCOUNT";
  iban: string;
  swiftCode?: string;
  beneficiary: CorridorBeneficiary;
}
export interface GbpAccountInfo {
  accountType: "GBP_ACCOUNT";
  sortCode: string;
  /** 8 digits passing the Vocalink modulus check for `sortCode`. */
  accountNumber: string;
  beneficiary: CorridorBeneficiary;
}
/** Needs `accountNumber` or `phoneNumber`. */
export interface GhsAccountInfo {
  accountType: "GHS_ACCOUNT";
  accountNumber?: string;
  bankName: string;
  phoneNumber?: string;
  beneficiary: CorridorBeneficiary;
}
export interface GtqAccountInfo {
  accountType: "GTQ_ACCOUNT";
  accountNumber: string;
  bankAccountType: BankAccountType;
  bankName: string;
  beneficiary: CorridorBeneficiary<IndividualBeneficiaryWithPhone>;
}
export interface HtgAccountInfo {
  accountType: "HTG_ACCOUNT";
  phoneNumber: string;
  beneficiary: CorridorBeneficiary;
}
export interface IdrAccountInfo {
  accountType: "IDR_ACCOUNT";
  bankName: string;
  accountNumber: string;
  swiftCode: string;
  phoneNumber: string;
  beneficiary: CorridorBeneficiary;
}
/** Needs `vpa`, or `accountNumber` and `ifsc`; `rail` is `UPI`, `NEFT` or `RTGS`. */
export interface InrAccountInfo {
  accountType: "INR_ACCOUNT";
  vpa?: string;
  accountNumber?: string;
  ifsc?: string;
  rail?: string;
  bankName?: string;
  beneficiary: CorridorBeneficiary;
}
export interface JmdAccountInfo {
  accountType: "JMD_ACCOUNT";
  accountNumber: string;
  branchCode: string;
  bankAccountType: BankAccountType;
  bankName: string;
  beneficiary: CorridorBeneficiary<IndividualBeneficiaryWithAddressAndPhone>;
}
export interface MxnAccountInfo {
  accountType: "MXN_ACCOUNT";
  /** 18 digits with a valid check digit, bank and city. */
  clabeNumber: string;
  beneficiary: CorridorBeneficiary;
}
/** NGN: `accountNumber` is a NUBAN (checked for the banks the server knows). */
export interface NgnAccountInfo {
  accountType: "NGN_ACCOUNT";
  accountNumber: string;
  bankName: string;
  beneficiary: CorridorBeneficiary;
}
export interface PhpAccountInfo {
  accountType: "PHP_ACCOUNT";
  bankName: string;
  accountNumber: string;
  beneficiary: CorridorBeneficiary;
}
/** Needs `accountNumber`, `iban` or `phoneNumber`. */
export interface PkrAccountInfo {
  accountType: "PKR_ACCOUNT";
  bankName: string;
  accountNumber?: string;
  iban?: string;
  phoneNumber?: string;
  beneficiary: CorridorBeneficiary;
}
export interface SgdAccountInfo {
  accountType: "SGD_ACCOUNT";
  bankName?: string;
  accountNumber: string;
  swiftCode: string;
  beneficiary: CorridorBeneficiary;
}
/** El Salvador, in USD. Needs `accountNumber` or `phoneNumber`. */
export interface SlvAccountInfo {
  accountType: "SLV_ACCOUNT";
  bankName?: string;
  accountNumber?: string;
  bankAccountType?: BankAccountType;
  phoneNumber?: string;
  beneficiary: CorridorBeneficiary;
}
/** Any country, in the request's currency. Needs `accountNumber` or `iban`. */
export interface SwiftAccountInfo {
  accountType: "SWIFT_ACCOUNT";
  country: string;
  swiftCode: string;
  bankName: string;
  accountNumber?: string;
  iban?: string;
  beneficiary: CorridorBeneficiary;
}

/** An account at a bank named by its BIC (of a bank in the corridor's country). */
interface SwiftBankAccountInfo<T extends string> {
  accountType: T;
  bankName: string;
  accountNumber: string;
  swiftCode: string;
  beneficiary: CorridorBeneficiary;
}
export type HkdAccountInfo = SwiftBankAccountInfo<"HKD_ACCOUNT">;
export type MyrAccountInfo = SwiftBankAccountInfo<"MYR_ACCOUNT">;
export type ThbAccountInfo = SwiftBankAccountInfo<"THB_ACCOUNT">;
export type VndAccountInfo = SwiftBankAccountInfo<"VND_ACCOUNT">;

/** A mobile money account: a mobile number of the corridor's country at a provider. */
interface MobileMoneyAccountInfo<T extends string> {
  accountType: T;
  phoneNumber: string;
  provider: string;
  beneficiary: CorridorBeneficiary;
}
export type BwpAccountInfo = MobileMoneyAccountInfo<"BWP_ACCOUNT">;
export type KesAccountInfo = MobileMoneyAccountInfo<"KES_ACCOUNT">;
export type MwkAccountInfo = MobileMoneyAccountInfo<"MWK_ACCOUNT">;
export type RwfAccountInfo = MobileMoneyAccountInfo<"RWF_ACCOUNT">;
export type TzsAccountInfo = MobileMoneyAccountInfo<"TZS_ACCOUNT">;
export type UgxAccountInfo = MobileMoneyAccountInfo<"UGX_ACCOUNT">;
export type ZmwAccountInfo = MobileMoneyAccountInfo<"ZMW_ACCOUNT">;
/** The phone number is of the `region`'s country. */
export interface XafAccountInfo extends MobileMoneyAccountInfo<"XAF_ACCOUNT"> {
  region: "CM" | "CG";
}
export interface XofAccountInfo extends MobileMoneyAccountInfo<"XOF_ACCOUNT"> {
  region: "BJ" | "CI" | "SN" | "TG";
}
export interface ZarAccountInfo {
  accountType: "ZAR_ACCOUNT";
  accountNumber: string;
  bankName: string;
  beneficiary: CorridorBeneficiary;
}

/** Every bank account type but `USD_ACCOUNT`, told apart by `accountType`. */
export type CorridorAccountInfo =
  | AedAccountInfo
  | BdtAccountInfo
  | BrlAccountInfo
  | BwpAccountInfo
  | CadAccountInfo
  | CnyAccountInfo
  | CopAccountInfo
  | DkkAccountInfo
  | EgpAccountInfo
  | EurAccountInfo
  | GbpAccountInfo
  | GhsAccountInfo
  | GtqAccountInfo
  | HkdAccountInfo
  | HtgAccountInfo
  | IdrAccountInfo
  | InrAccountInfo
  | JmdAccountInfo
  | KesAccountInfo
  | MwkAccountInfo
  | MxnAccountInfo
  | MyrAccountInfo
  | NgnAccountInfo
  | PhpAccountInfo
  | PkrAccountInfo
  | RwfAccountInfo
  | SgdAccountInfo
  | SlvAccountInfo
  | SwiftAccountInfo
  | ThbAccountInfo
  | TzsAccountInfo
  | UgxAccountInfo
  | VndAccountInfo
  | XafAccountInfo
  | XofAccountInfo
  | ZarAccountInfo
  | ZmwAccountInfo;
