/**
 * KYC/KYB wire types (the hosted API's KYC/KYB Verifications area), mirroring
 * packages/server/src/kyc/beneficial-owner-schemas.ts, kyc-link-schemas.ts and schemas.ts field for field.
 * Re-exported from index.ts.
 */
import type { PageParams, SortedPageParams } from "./common.js";
import type { Address, KycStatus } from "./customers.js";

export type BeneficialOwnerRole =
  | "UBO"
  | "DIRECTOR"
  | "COMPANY_OFFICER"
  | "CONTROL_PERSON"
  | "TRUSTEE"
  | "GENERAL_PARTNER";

export type IdentificationType = "SSN" | "ITIN" | "EIN" | "NON_US_TAX_ID";

export interface BeneficialOwnerPersonalInfo {
  firstName: string;
  middleName?: string;
  /** In a sandbox, its last three characters can decide the business's verification (`001`, `002`, `003`). */
  lastName: string;
  /** `YYYY-MM-DD`. */
  birthDate: string;
  /** ISO 3166-1 alpha-2. */
  nationality: string;
  email?: string;
  /** E.164. */
  phoneNumber?: string;
  address: Address;
  idType: IdentificationType;
  /** The tax or id number. Responses mask every character but the last four with `*`. */
  identifier: string;
  /** ISO 3166-1 alpha-2. */
  countryOfIssuance?: string;
}

/** `POST /beneficial-owners`: an owner of a BUSINESS customer; the owners' shares add up to at most 100. */
export interface CreateBeneficialOwnerBody {
  customerId: string;
  /** At least one, no repeats. */
  roles: BeneficialOwnerRole[];
  /** 0 to 100. */
  ownershipPercentage: number;
  personalInfo: BeneficialOwnerPersonalInfo;
}

/** `PATCH /beneficial-owners/{id}`: at least one field; `personalInfo` is merged field by field. */
export interface UpdateBeneficialOwnerBody {
  roles?: BeneficialOwnerRole[];
  ownershipPercentage?: number;
  personalInfo?: Partial<BeneficialOwnerPersonalInfo>;
}

export interface BeneficialOwner {
  id: string;
  customerId: string;
  roles: BeneficialOwnerRole[];
  ownershipPercentage: number;
  personalInfo: BeneficialOwnerPersonalInfo;
  /** `UNVERIFIED` until the business's verification resolves; then the business's status. */
  kycStatus: KycStatus;
  createdAt: string;
  updatedAt: string;
}

/** `GET /beneficial-owners`: one business's owners, oldest first. */
export interface BeneficialOwnerListParams extends PageParams {
  customerId: string;
}

export type VerificationStatus =
  | "RESOLVE_ERRORS"
  | "PENDING_MANUAL_REVIEW"
  | "IN_PROGRESS"
  | "APPROVED"
  | "REJECTED"
  | "READY_FOR_VERIFICATION";

export type VerificationErrorType =
  | "MISSING_FIELD"
  | "MISSING_IDENTITY_DOCUMENT"
  | "MISSING_LEGAL_PRESENCE_DOCUMENT"
  | "MISSING_BENEFICIAL_OWNER";

export type VerificationDocumentType =
  | "PASSPORT"
  | "DRIVERS_LICENSE"
  | "NATIONAL_ID"
  | "PROOF_OF_ADDRESS"
  | "CERTIFICATE_OF_INCORPORATION"
  | "PROOF_OF_OWNERSHIP";

/** One missing item of the packet. */
export interface VerificationError {
  /** The resource the entry is about: the customer. */
  resourceId: string;
  type: VerificationErrorType;
  /** `MISSING_FIELD`: the customer field's path, e.g. `businessInfo.taxId`. */
  field?: string;
  /** The missing-document types: any one of these documents will do. */
  acceptedDocumentTypes?: VerificationDocumentType[];
  reason: string;
}

export interface Verification {
  id: string;
  customerId: string;
  verificationStatus: VerificationStatus;
  /** One entry per missing field, document or owner; empty unless `RESOLVE_ERRORS`. */
  errors: VerificationError[];
  createdAt: string;
  updatedAt: string;
}

export interface CreateVerificationBody {
  customerId: string;
}

export interface VerificationListParams extends SortedPageParams {
  customerId?: string;
  verificationStatus?: VerificationStatus;
}

/** `POST /customers/{customerId}/kyc-link`. */
export interface CreateKycLinkBody {
  /** Where the hosted page's "Continue" link sends the person after they submit. */
  redirectUri?: string;
}

/** A link to the hosted verification page (sandbox platforms). */
export interface KycLink {
  kycUrl: string;
  expiresAt: string;
  provider: "SANDBOX";
}
