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
  city?: string;
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

export type BusinessEntityType =
  | "SOLE_PROPRIETORSHIP"
  | "PARTNERSHIP"
  | "LLC"
  | "CORPORATION"
  | "S_CORPORATION"
  | "NON_PROFIT"
  | "PUBLICLY_LISTED_COMPANY"
  | "TRUST"
  | "PRIVATE_FOUNDATION"
  | "CHARITY"
  | "OTHER";

export type BusinessType =
  | "AGRICULTURE_FORESTRY_FISHING_AND_HUNTING"
  | "MINING_QUARRYING_AND_OIL_AND_GAS_EXTRACTION"
  | "UTILITIES"
  | "CONSTRUCTION"
  | "MANUFACTURING"
  | "WHOLESALE_TRADE"
  | "RETAIL_TRADE"
  | "TRANSPORTATION_AND_WAREHOUSING"
  | "INFORMATION"
  | "FINANCE_AND_INSURANCE"
  | "REAL_ESTATE_AND_RENTAL_AND_LEASING"
  | "PROFESSIONAL_SCIENTIFIC_AND_TECHNICAL_SERVICES"
  | "MANAGEMENT_OF_COMPANIES_AND_ENTERPRISES"
  | "ADMINISTRATIVE_AND_SUPPORT_AND_WASTE_MANAGEMENT_AND_REMEDIATION_SERVICES"
  | "EDUCATIONAL_SERVICES"
  | "HEALTH_CARE_AND_SOCIAL_ASSISTANCE"
  | "ARTS_ENTERTAINMENT_AND_RECREATION"
  | "ACCOMMODATION_AND_FOOD_SERVICES"
  | "OTHER_SERVICES"
  | "PUBLIC_ADMINISTRATION";

export type BusinessPurposeOfAccount =
  | "CONTRACTOR_PAYOUTS"
  | "CREATOR_PAYOUTS"
  | "EMPLOYEE_PAYOUTS"
  | "MARKETPLACE_SELLER_PAYOUTS"
  | "SUPPLIER_PAYMENTS"
  | "CROSS_BORDER_B2B"
  | "AR_AUTOMATION"
  | "AP_AUTOMATION"
  | "EMBEDDED_PAYMENTS"
  | "PLATFORM_FEE_COLLECTION"
  | "P2P_TRANSFERS"
  | "CHARITABLE_DONATIONS"
  | "OTHER";

export type BusinessSourceOfFundsCategory =
  | "OPERATING_REVENUE"
  | "INVESTMENT_INCOME"
  | "LOANS"
  | "VENTURE_CAPITAL"
  | "PERSONAL_SAVINGS"
  | "DONATIONS"
  | "OTHER";

/**
 * The hosted API's BusinessInfoUpdate: every field optional on create and update (an update merges it field
 * by field). `verifications.create` names the ones a complete packet needs: legalName, country,
 * incorporatedOn and taxId. Beneficial owners are their own resource (`paysvc.beneficialOwners`).
 */
export interface BusinessInfo {
  legalName?: string;
  doingBusinessAs?: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
  /** In a sandbox, its last three characters can decide the verification. */
  registrationNumber?: string;
  /** `YYYY-MM-DD`. */
  incorporatedOn?: string;
  entityType?: BusinessEntityType;
  taxId?: string;
  countriesOfOperation?: string[];
  businessType?: BusinessType;
  purposeOfAccount?: BusinessPurposeOfAccount;
  sourceOfFunds?: string;
  expectedMonthlyTransactionCount?:
    | "COUNT_UNDER_10"
    | "COUNT_10_TO_100"
    | "COUNT_100_TO_500"
    | "COUNT_500_TO_1000"
    | "COUNT_OVER_1000";
  expectedMonthlyTransactionVolume?:
    | "VOLUME_UNDER_10K"
    | "VOLUME_10K_TO_100K"
    | "VOLUME_100K_TO_1M"
    | "VOLUME_1M_TO_10M"
    | "VOLUME_OVER_10M";
  expectedRecipientJurisdictions?: string[];
  /** 2 to 6 digits. */
  naicsCode?: string;
  sourceOfFundsCategories?: BusinessSourceOfFundsCategory[];
  sourceOfFundsOtherDescription?: string;
  purposeOfAccountOtherDescription?: string;
  expectedCounterpartyCountries?: string[];
  primaryContactFirstName?: string;
  primaryContactLastName?: string;
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
  /** BUSINESS customers only: the hosted API's name for their `kycStatus` (always equal to it). */
  kybStatus?: KycStatus;
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
  enhancedDueDiligence?: EnhancedDueDiligence;
  agreementConsents: AgreementConsent[];
  endUserTermsConsent?: Omit<AgreementConsent, "type">;
  createdAt: string;
  updatedAt: string;
}

/** Filters of `GET /customers` (the hosted API's, plus `kycStatus`); time bounds are inclusive. */
export interface CustomerListParams extends SortedPageParams {
  platformCustomerId?: string;
  customerType?: CustomerType;
  kycStatus?: KycStatus;
  /** ISO 3166-1 alpha-2. */
  region?: string;
  /** Customers whose `currencies` include this code. */
  currency?: string;
  /** Matched without regard to case. */
  umaAddress?: string;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  /** Deleted customers are left out unless this is true. */
  isIncludingDeleted?: boolean;
}

export type BulkCustomerImportStatus = "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED";

/**
 * One failed row of a bulk import: `correlationId` is the row's `platformCustomerId` (or `row-<n>`),
 * `details.row` the row's number (1 = the first row after the header) and `details.errors` its FieldErrors.
 */
export interface BulkCustomerImportErrorEntry {
  correlationId: string;
  code: string;
  reason: string;
  details?: Record<string, unknown>;
}

export interface BulkCustomerImportJob {
  id: string;
  status: BulkCustomerImportStatus;
  progress: { total: number; processed: number; successful: number; failed: number };
  errors: BulkCustomerImportErrorEntry[];
  completedAt?: string;
}

export interface BulkCustomerImportJobAccepted {
  jobId: string;
  status: "PENDING" | "PROCESSING";
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
