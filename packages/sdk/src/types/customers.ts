/**
 * Customer wire types, mirroring packages/server/src/customers/schemas.ts and agreements.ts field for field.
 * Re-exported from index.ts.
 */
import type { SortedPageParams } from "./common.js";

export type CustomerType = "INDIVIDUAL" | "BUSINESS";
export type KycStatus = "UNVERIFIED" | "PENDING" | "APPROVED" | "REJECTED" | "HOLD";
export type AgreementType =
  | "SERVICE_END_USER_TERMS"
  | "PRIVACY_POLICY"
  | "E_SIGN_CONSENT"
  | "CARDHOLDER_AGREEMENT"
  | "DEPOSIT_ACCOUNT_AGREEMENT"
  | "DIGITAL_ASSET_RISK_DISCLOSURE"
  | "EMBEDDED_WALLET_TERMS";
export type AcceptanceMethod = "CLICKWRAP" | "BROWSEWRAP" | "E_SIGNATURE" | "IN_PERSON";

export interface Address {
  line1: string;
  line2?: string;
  city: string;
  state?: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface AgreementConsentInput {
  type: AgreementType;
  termsVersion: string;
  acceptedAt: string;
  /** The end user's IP address when they accepted (IPv4 or IPv6); required. */
  ipAddress: string;
  acceptanceMethod?: AcceptanceMethod;
}

/** Deprecated: send `agreementConsents` with a `SERVICE_END_USER_TERMS` entry instead. */
export interface EndUserTermsConsentInput {
  termsVersion: string;
  acceptedAt: string;
  /** The end user's IP address when they accepted (IPv4 or IPv6); required. */
  ipAddress: string;
  acceptanceMethod?: AcceptanceMethod;
}

export interface BusinessInfo {
  legalName: string;
  doingBusinessAs?: string;
  registrationNumber?: string;
  taxId?: string;
  incorporatedOn?: string;
  countryOfIncorporation?: string;
  website?: string;
}

export interface BeneficialOwner {
  firstName: string;
  lastName: string;
  birthDate?: string;
  nationality?: string;
  ownershipPercentage?: number;
}

export type SourceOfFunds =
  | "EMPLOYMENT"
  | "SAVINGS"
  | "INVESTMENTS"
  | "BUSINESS_INCOME"
  | "INHERITANCE"
  | "OTHER";

export interface EnhancedDueDiligence {
  occupation?: string;
  employerName?: string;
  sourceOfFunds?: SourceOfFunds;
  expectedMonthlyVolume?: number;
}

/** The optional profile fields shared by create and update. */
export interface CustomerFields {
  platformCustomerId?: string;
  region?: string;
  currencies?: string[];
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  email?: string;
  /** E.164, e.g. `+14155550100`. */
  phoneNumber?: string;
  umaAddress?: string;
  address?: Address;
  businessInfo?: BusinessInfo;
  beneficialOwners?: BeneficialOwner[];
  enhancedDueDiligence?: EnhancedDueDiligence;
  agreementConsents?: AgreementConsentInput[];
  endUserTermsConsent?: EndUserTermsConsentInput;
}

export interface CreateCustomerBody extends CustomerFields {
  customerType: CustomerType;
}

/** At least one field; `customerType`, when sent, must equal the customer's type (it never changes). */
export interface UpdateCustomerBody extends CustomerFields {
  customerType?: CustomerType;
}

export interface AgreementConsent {
  type: string;
  acceptedAt: string;
  ipAddress?: string;
  termsVersion: string;
  acceptanceMethod: string;
}

export type ContactVerificationStatus = "PENDING" | "VERIFIED";

/**
 * For customers in the regions that require contact verification (EEA, GB): whether the current `email`
 * and `phone` are proven (`sca.confirmEmailVerification`, `sca.confirmPhoneVerification`). A changed value
 * reads `PENDING` again; a value the customer does not have is absent.
 */
export interface ContactVerification {
  email?: ContactVerificationStatus;
  phone?: ContactVerificationStatus;
}

export interface Customer {
  id: string;
  platformCustomerId?: string;
  customerType: CustomerType;
  umaAddress: string;
  kycStatus: KycStatus;
  isDeleted: boolean;
  contactVerification?: ContactVerification;
  region?: string;
  currencies?: string[];
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  email?: string;
  phoneNumber?: string;
  address?: Address;
  businessInfo?: BusinessInfo;
  beneficialOwners?: BeneficialOwner[];
  enhancedDueDiligence?: EnhancedDueDiligence;
  agreementConsents: AgreementConsent[];
  endUserTermsConsent?: Omit<AgreementConsent, "type">;
  createdAt: string;
  updatedAt: string;
}

/** Filters of `GET /customers`. */
export interface CustomerListParams extends SortedPageParams {
  platformCustomerId?: string;
  customerType?: CustomerType;
  kycStatus?: KycStatus;
}

export interface Agreement {
  type: string;
  version: string;
  url: string;
}

export interface EndUserTerms {
  version: string;
  url: string;
}
