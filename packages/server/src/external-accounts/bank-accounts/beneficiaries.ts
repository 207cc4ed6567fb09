import { type TObject, Type } from "typebox";
import { DiscriminatedUnion, StringEnum } from "../../core/http/schemas.js";
import { Country, object, Text } from "./fields.js";

// Beneficiaries of the corridor accounts: the hosted `<Ccy>Beneficiary` (INDIVIDUAL) and
// `BusinessBeneficiary` schemas. Where conventions §4.1 says more, it wins: an INDIVIDUAL beneficiary always
// has `countryOfResidence` (the hosted schemas require it only for EUR and GTQ). USD_ACCOUNT keeps its own
// beneficiary (usd.ts).

/** The hosted `Address`: `line1`, `postalCode` and `country` required. */
export const BeneficiaryAddress = object({
  line1: Text(255),
  line2: Type.Optional(Text(255)),
  city: Type.Optional(Text(100)),
  state: Type.Optional(Text(100)),
  postalCode: Text(20),
  country: Country,
});

const Email = Type.String({ format: "email" });
const E164 = Type.String({ format: "e.164" });

const individual = {
  beneficiaryType: StringEnum(["INDIVIDUAL"]),
  fullName: Text(255),
  birthDate: Type.Optional(Type.String({ format: "date" })),
  nationality: Type.Optional(Country),
  email: Type.Optional(Email),
  phoneNumber: Type.Optional(E164),
  countryOfResidence: Country,
  address: Type.Optional(BeneficiaryAddress),
};

/** The INDIVIDUAL beneficiary of most corridors. */
export const IndividualBeneficiary = object(individual);
/** AED: `address` required. */
export const IndividualBeneficiaryWithAddress = object({ ...individual, address: BeneficiaryAddress });
/** GTQ: `phoneNumber` required. */
export const IndividualBeneficiaryWithPhone = object({ ...individual, phoneNumber: E164 });
/** JMD: `address` and `phoneNumber` required. */
export const IndividualBeneficiaryWithAddressAndPhone = object({
  ...individual,
  address: BeneficiaryAddress,
  phoneNumber: E164,
});
/** CAD: the hosted CadBeneficiary adds `registrationNumber`. */
export const CadIndividualBeneficiary = object({
  ...individual,
  registrationNumber: Type.Optional(Text(64)),
});
/** COP: the hosted CopBeneficiary adds the identity document. */
export const CopIndividualBeneficiary = object({
  ...individual,
  documentType: Type.Optional(StringEnum(["CC", "CE", "TI", "NIT", "PP"])),
  documentNumber: Type.Optional(Text(50)),
});

/**
 * The hosted BusinessBeneficiary, plus `countryOfIncorporation` (optional here), the field USD_ACCOUNT's
 * BUSINESS beneficiary requires, so one beneficiary object fits every account type.
 */
export const BusinessBeneficiary = object({
  beneficiaryType: StringEnum(["BUSINESS"]),
  legalName: Text(255),
  registrationNumber: Type.Optional(Text(64)),
  taxId: Type.Optional(Text(64)),
  email: Type.Optional(Email),
  phoneNumber: Type.Optional(E164),
  countryOfResidence: Type.Optional(Country),
  countryOfIncorporation: Type.Optional(Country),
  address: Type.Optional(BeneficiaryAddress),
});

/** `beneficiary` of a corridor account: its INDIVIDUAL shape or BusinessBeneficiary, by `beneficiaryType`. */
export const beneficiaryOf = <I extends TObject>(individualShape: I) =>
  DiscriminatedUnion("beneficiaryType", [individualShape, BusinessBeneficiary]);

/** The beneficiary of most corridors. */
export const StandardBeneficiary = beneficiaryOf(IndividualBeneficiary);
