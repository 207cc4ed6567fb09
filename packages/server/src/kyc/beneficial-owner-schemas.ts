import { type Static, Type } from "typebox";
import { Page, PageQuery, Query } from "../core/http/pagination.js";
import { DateTime, StringEnum } from "../core/http/schemas.js";
import { Address } from "../customers/schemas.js";

// The hosted API's BeneficialOwner* schemas (KYC/KYB Verifications), with our length bounds.

const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const Country = Type.String({ format: "iso3166-1-alpha-2" });

export const beneficialOwnerRoles = [
  "UBO",
  "DIRECTOR",
  "COMPANY_OFFICER",
  "CONTROL_PERSON",
  "TRUSTEE",
  "GENERAL_PARTNER",
] as const;

export const identificationTypes = ["SSN", "ITIN", "EIN", "NON_US_TAX_ID"] as const;

const Roles = Type.Array(StringEnum(beneficialOwnerRoles), { minItems: 1, uniqueItems: true });
const OwnershipPercentage = Type.Integer({ minimum: 0, maximum: 100 });

const personalInfoFields = {
  firstName: Text(100),
  middleName: Type.Optional(Text(100)),
  /** In a sandbox, its last three characters can decide the business's verification (conventions §2.1). */
  lastName: Text(100),
  birthDate: Type.String({ format: "date" }),
  nationality: Country,
  email: Type.Optional(Type.String({ format: "email", maxLength: 254 })),
  phoneNumber: Type.Optional(Type.String({ format: "e.164" })),
  address: Address,
  idType: StringEnum(identificationTypes),
  identifier: Text(64),
  countryOfIssuance: Type.Optional(Country),
};

export const BeneficialOwnerPersonalInfo = Type.Object(personalInfoFields, { additionalProperties: false });
export type BeneficialOwnerPersonalInfo = Static<typeof BeneficialOwnerPersonalInfo>;

export const BeneficialOwnerPersonalInfoUpdate = Type.Partial(BeneficialOwnerPersonalInfo, {
  additionalProperties: false,
});

export const CreateBeneficialOwnerBody = Type.Object(
  {
    // Any string: a malformed or foreign id is 404 CUSTOMER_NOT_FOUND, not 400 (conventions §1.3).
    customerId: Type.String(),
    roles: Roles,
    ownershipPercentage: OwnershipPercentage,
    personalInfo: BeneficialOwnerPersonalInfo,
  },
  { additionalProperties: false },
);
export type CreateBeneficialOwnerBody = Static<typeof CreateBeneficialOwnerBody>;

export const UpdateBeneficialOwnerBody = Type.Object(
  {
    roles: Type.Optional(Roles),
    ownershipPercentage: Type.Optional(OwnershipPercentage),
    personalInfo: Type.Optional(BeneficialOwnerPersonalInfoUpdate),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateBeneficialOwnerBody = Static<typeof UpdateBeneficialOwnerBody>;

export const BeneficialOwner = Type.Object({
  id: Type.String(),
  customerId: Type.String(),
  roles: Type.Array(StringEnum(beneficialOwnerRoles)),
  ownershipPercentage: Type.Integer(),
  personalInfo: Type.Object({
    ...personalInfoFields,
    identifier: Type.String({
      description: "Masked: every character but the last four is replaced by '*'.",
    }),
  }),
  kycStatus: StringEnum(["UNVERIFIED", "PENDING", "APPROVED", "REJECTED", "HOLD"]),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type BeneficialOwner = Static<typeof BeneficialOwner>;

export const BeneficialOwnerPage = Page(BeneficialOwner);

// A filter, not a lookup: an unknown or foreign customerId lists nothing (the hosted list has no 404).
export const ListBeneficialOwnersQuery = Query({ customerId: Type.String({ maxLength: 100 }), ...PageQuery });
export type ListBeneficialOwnersQuery = Static<typeof ListBeneficialOwnersQuery>;

export const BeneficialOwnerParams = Type.Object({ beneficialOwnerId: Type.String() });
