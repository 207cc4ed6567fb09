import { type Static, Type } from "typebox";
import { CurrencyAmount, DateTime, StringEnum } from "../core/http/schemas.js";
import { acceptanceMethods, agreementTypes } from "./agreements.js";

const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const Country = Type.String({ format: "iso3166-1-alpha-2" });
const object = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

/** The hosted API's Address: `line1`, `postalCode` and `country` required. */
export const Address = object({
  line1: Text(200),
  line2: Type.Optional(Text(200)),
  city: Type.Optional(Text(100)),
  state: Type.Optional(Text(100)),
  postalCode: Text(20),
  country: Country,
});

export const AgreementConsentInput = object({
  type: StringEnum(agreementTypes),
  termsVersion: Text(64),
  acceptedAt: DateTime(),
  ipAddress: Type.String({ format: "ip" }),
  acceptanceMethod: Type.Optional(StringEnum(acceptanceMethods)),
});

export const EndUserTermsConsentInput = object({
  termsVersion: Text(64),
  acceptedAt: DateTime(),
  ipAddress: Type.String({ format: "ip" }),
  acceptanceMethod: Type.Optional(StringEnum(acceptanceMethods)),
});

const Countries = Type.Array(Country, { maxItems: 250, uniqueItems: true });
const Description = Type.String({ minLength: 1, maxLength: 500 });

/**
 * The hosted API's BusinessInfoUpdate: every field optional on create and update (PATCH merges it field by
 * field); `POST /verifications` names the ones a complete KYB packet needs (kyc/verifications.ts).
 */
export const BusinessInfo = object({
  legalName: Type.Optional(Text(200)),
  doingBusinessAs: Type.Optional(Text(200)),
  country: Type.Optional(Country),
  registrationNumber: Type.Optional(Text(64)),
  incorporatedOn: Type.Optional(Type.String({ format: "date" })),
  entityType: Type.Optional(
    StringEnum([
      "SOLE_PROPRIETORSHIP",
      "PARTNERSHIP",
      "LLC",
      "CORPORATION",
      "S_CORPORATION",
      "NON_PROFIT",
      "PUBLICLY_LISTED_COMPANY",
      "TRUST",
      "PRIVATE_FOUNDATION",
      "CHARITY",
      "OTHER",
    ]),
  ),
  taxId: Type.Optional(Text(64)),
  countriesOfOperation: Type.Optional(Countries),
  businessType: Type.Optional(
    StringEnum([
      "AGRICULTURE_FORESTRY_FISHING_AND_HUNTING",
      "MINING_QUARRYING_AND_OIL_AND_GAS_EXTRACTION",
      "UTILITIES",
      "CONSTRUCTION",
      "MANUFACTURING",
      "WHOLESALE_TRADE",
      "RETAIL_TRADE",
      "TRANSPORTATION_AND_WAREHOUSING",
      "INFORMATION",
      "FINANCE_AND_INSURANCE",
      "REAL_ESTATE_AND_RENTAL_AND_LEASING",
      "PROFESSIONAL_SCIENTIFIC_AND_TECHNICAL_SERVICES",
      "MANAGEMENT_OF_COMPANIES_AND_ENTERPRISES",
      "ADMINISTRATIVE_AND_SUPPORT_AND_WASTE_MANAGEMENT_AND_REMEDIATION_SERVICES",
      "EDUCATIONAL_SERVICES",
      "HEALTH_CARE_AND_SOCIAL_ASSISTANCE",
      "ARTS_ENTERTAINMENT_AND_RECREATION",
      "ACCOMMODATION_AND_FOOD_SERVICES",
      "OTHER_SERVICES",
      "PUBLIC_ADMINISTRATION",
    ]),
  ),
  purposeOfAccount: Type.Optional(
    StringEnum([
      "CONTRACTOR_PAYOUTS",
      "CREATOR_PAYOUTS",
      "EMPLOYEE_PAYOUTS",
      "MARKETPLACE_SELLER_PAYOUTS",
      "SUPPLIER_PAYMENTS",
      "CROSS_BORDER_B2B",
      "AR_AUTOMATION",
      "AP_AUTOMATION",
      "EMBEDDED_PAYMENTS",
      "PLATFORM_FEE_COLLECTION",
      "P2P_TRANSFERS",
      "CHARITABLE_DONATIONS",
      "OTHER",
    ]),
  ),
  sourceOfFunds: Type.Optional(Text(500)),
  expectedMonthlyTransactionCount: Type.Optional(
    StringEnum([
      "COUNT_UNDER_10",
      "COUNT_10_TO_100",
      "COUNT_100_TO_500",
      "COUNT_500_TO_1000",
      "COUNT_OVER_1000",
    ]),
  ),
  expectedMonthlyTransactionVolume: Type.Optional(
    StringEnum([
      "VOLUME_UNDER_10K",
      "VOLUME_10K_TO_100K",
      "VOLUME_100K_TO_1M",
      "VOLUME_1M_TO_10M",
      "VOLUME_OVER_10M",
    ]),
  ),
  expectedRecipientJurisdictions: Type.Optional(Countries),
  naicsCode: Type.Optional(Type.String({ pattern: "^\\d{2,6}$" })),
  sourceOfFundsCategories: Type.Optional(
    Type.Array(
      StringEnum([
        "OPERATING_REVENUE",
        "INVESTMENT_INCOME",
        "LOANS",
        "VENTURE_CAPITAL",
        "PERSONAL_SAVINGS",
        "DONATIONS",
        "OTHER",
      ]),
      { maxItems: 7, uniqueItems: true },
    ),
  ),
  sourceOfFundsOtherDescription: Type.Optional(Description),
  purposeOfAccountOtherDescription: Type.Optional(Description),
  expectedCounterpartyCountries: Type.Optional(Countries),
  primaryContactFirstName: Type.Optional(Text(250)),
  primaryContactLastName: Type.Optional(Text(250)),
});

export const EnhancedDueDiligence = object({
  occupation: Type.Optional(Text(100)),
  employerName: Type.Optional(Text(200)),
  sourceOfFunds: Type.Optional(
    StringEnum(["EMPLOYMENT", "SAVINGS", "INVESTMENTS", "BUSINESS_INCOME", "INHERITANCE", "OTHER"]),
  ),
  expectedMonthlyVolume: Type.Optional(Type.Integer({ minimum: 0, maximum: 9_000_000_000_000_000 })),
});

const customerFields = {
  platformCustomerId: Type.Optional(Text(255)),
  region: Type.Optional(Country),
  currencies: Type.Optional(Type.Array(Type.String({ pattern: "^[A-Z]{3,5}$" }), { maxItems: 20 })),
  fullName: Type.Optional(Text(200)),
  birthDate: Type.Optional(Type.String({ format: "date" })),
  nationality: Type.Optional(Country),
  email: Type.Optional(Type.String({ format: "email", maxLength: 254 })),
  phoneNumber: Type.Optional(Type.String({ format: "e.164" })),
  umaAddress: Type.Optional(Text(255)),
  address: Type.Optional(Address),
  businessInfo: Type.Optional(BusinessInfo),
  enhancedDueDiligence: Type.Optional(EnhancedDueDiligence),
  agreementConsents: Type.Optional(Type.Array(AgreementConsentInput, { maxItems: agreementTypes.length })),
  endUserTermsConsent: Type.Optional(EndUserTermsConsentInput),
};

export const CreateCustomerBody = object({
  customerType: StringEnum(["INDIVIDUAL", "BUSINESS"]),
  ...customerFields,
});
export type CreateCustomerBody = Static<typeof CreateCustomerBody>;

/**
 * The hosted API's clients send `customerType` on every update: it is accepted when it equals the stored
 * type (a customer's type never changes; customers.ts refuses another value).
 */
export const UpdateCustomerBody = Type.Object(
  { customerType: Type.Optional(StringEnum(["INDIVIDUAL", "BUSINESS"])), ...customerFields },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateCustomerBody = Static<typeof UpdateCustomerBody>;

export const AgreementConsent = Type.Object({
  type: Type.String(),
  acceptedAt: DateTime(),
  ipAddress: Type.Optional(Type.String()),
  termsVersion: Type.String(),
  acceptanceMethod: Type.String(),
});

export const kycStatuses = ["UNVERIFIED", "PENDING", "APPROVED", "REJECTED", "HOLD"] as const;

/**
 * The hosted API's `contactVerification`: for customers in the regions that require contact verification,
 * whether the current `email` and `phoneNumber` are proven (customers/contact-verification.ts).
 */
export const ContactVerification = Type.Object({
  email: Type.Optional(StringEnum(["PENDING", "VERIFIED"])),
  phone: Type.Optional(StringEnum(["PENDING", "VERIFIED"])),
});

export const Customer = Type.Object({
  id: Type.String(),
  platformCustomerId: Type.Optional(Type.String()),
  customerType: StringEnum(["INDIVIDUAL", "BUSINESS"]),
  umaAddress: Type.String(),
  kycStatus: StringEnum(kycStatuses),
  /** BUSINESS customers only: the hosted API's name for their kycStatus (always equal to it). */
  kybStatus: Type.Optional(StringEnum(kycStatuses)),
  isDeleted: Type.Boolean(),
  contactVerification: Type.Optional(ContactVerification),
  region: Type.Optional(Type.String()),
  currencies: Type.Optional(Type.Array(Type.String())),
  fullName: Type.Optional(Type.String()),
  birthDate: Type.Optional(Type.String()),
  nationality: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  phoneNumber: Type.Optional(Type.String()),
  address: Type.Optional(Address),
  businessInfo: Type.Optional(BusinessInfo),
  enhancedDueDiligence: Type.Optional(EnhancedDueDiligence),
  agreementConsents: Type.Array(AgreementConsent),
  endUserTermsConsent: Type.Optional(
    Type.Object({
      acceptedAt: DateTime(),
      ipAddress: Type.Optional(Type.String()),
      termsVersion: Type.String(),
      acceptanceMethod: Type.String(),
    }),
  ),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const CustomerParams = Type.Object({ customerId: Type.String() });

export const Agreement = Type.Object({ type: Type.String(), version: Type.String(), url: Type.String() });

export const internalAccountTypes = ["INTERNAL_FIAT", "INTERNAL_CRYPTO", "EMBEDDED_WALLET"] as const;

export const InternalAccount = Type.Object({
  id: Type.String(),
  customerId: Type.Optional(Type.String()),
  type: StringEnum(internalAccountTypes),
  status: StringEnum(["PENDING", "ACTIVE", "CLOSED", "FROZEN", "FAILED"]),
  balance: CurrencyAmount,
  totalBalance: CurrencyAmount,
  fundingPaymentInstructions: Type.Array(
    Type.Object({
      instructionsNotes: Type.String(),
      accountOrWalletInfo: Type.Object({
        accountType: Type.String(),
        accountNumber: Type.String(),
        routingNumber: Type.String(),
        bankName: Type.String(),
        reference: Type.String(),
      }),
    }),
  ),
  privateEnabled: Type.Optional(Type.Boolean()),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const AccountParams = Type.Object({ accountId: Type.String() });
