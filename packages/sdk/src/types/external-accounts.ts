/**
 * External account and ownership-verification wire types, mirroring
 * packages/server/src/external-accounts/schemas.ts and ownership/schemas.ts (and ownership/liveness-schemas.ts
 * for the sandbox provider's SDK path) field for field (conventions §4). Re-exported from index.ts.
 */
import type { CorridorAccountInfo } from "./bank-accounts.js";
import type { SortedPageParams } from "./common.js";

export type * from "./bank-accounts.js";

export type ExternalAccountStatus =
  | "PENDING"
  | "ACTIVE"
  | "PENDING_OWNERSHIP_VERIFICATION"
  | "UNVERIFIED"
  | "UNDER_REVIEW"
  | "INACTIVE";

export type OwnershipType = "FIRST_PARTY" | "THIRD_PARTY";

/**
 * The beneficiary of a USD account or a wallet: an individual (`fullName`, `countryOfResidence`) or a business
 * (`legalName`, `countryOfIncorporation`). Other corridors use CorridorBeneficiary (bank-accounts.ts).
 */
export interface Beneficiary {
  beneficiaryType: "INDIVIDUAL" | "BUSINESS";
  fullName?: string;
  /** ISO 3166-1 alpha-2. */
  countryOfResidence?: string;
  /** `YYYY-MM-DD`. */
  birthDate?: string;
  nationality?: string;
  legalName?: string;
  countryOfIncorporation?: string;
  registrationNumber?: string;
}

/** A US bank account; starts `PENDING` while it is validated. */
export interface UsdAccountInfo {
  accountType: "USD_ACCOUNT";
  /** 1–34 digits. */
  accountNumber: string;
  /** 9 digits with a valid ABA checksum. */
  routingNumber: string;
  bankAccountType: "CHECKING" | "SAVINGS";
  bankName?: string;
  intermediaryBankName?: string;
  /** 9 digits with a valid ABA checksum. */
  intermediaryRoutingNumber?: string;
  /** At most 210 characters. */
  fiToFiInformation?: string;
  beneficiary: Beneficiary;
}

export type WalletAccountType =
  | "ETHEREUM_WALLET"
  | "BASE_WALLET"
  | "POLYGON_WALLET"
  | "PLASMA_WALLET"
  | "SOLANA_WALLET"
  | "BITCOIN_WALLET"
  | "TRON_WALLET"
  | "SPARK_WALLET";

/**
 * A crypto wallet. Without `vaspName` it is self-custody: a `FIRST_PARTY` self-custody wallet starts
 * `PENDING_OWNERSHIP_VERIFICATION` and is verified with `verifyOwnership` or a LIVENESS challenge.
 */
export interface WalletAccountInfo {
  accountType: WalletAccountType;
  address: string;
  beneficiary?: Beneficiary;
  /** The custodian; absent for a self-custody wallet. */
  vaspName?: string;
}

/** A Lightning destination: exactly one of `invoice`, `bolt12`, `lightningAddress`. */
export interface LightningAccountInfo {
  accountType: "LIGHTNING";
  invoice?: string;
  bolt12?: string;
  lightningAddress?: string;
  beneficiary?: Beneficiary;
  vaspName?: string;
}

/** Told apart by `accountType`: a bank account of any corridor, a crypto wallet, a Lightning destination. */
export type AccountInfo = UsdAccountInfo | CorridorAccountInfo | WalletAccountInfo | LightningAccountInfo;

/** `POST /customers/external-accounts`. */
export interface CreateCustomerExternalAccountBody {
  customerId: string;
  /** Currency code, e.g. `USD`, `USDC`; a bank account's is its type's (`SWIFT_ACCOUNT`: any ISO 4217). */
  currency: string;
  accountInfo: AccountInfo;
  ownershipType?: OwnershipType;
  platformAccountId?: string;
  defaultUmaDepositAccount?: boolean;
}

/** `POST /platform/external-accounts`: a platform-owned account (no `customerId`). */
export interface CreatePlatformExternalAccountBody {
  currency: string;
  accountInfo: AccountInfo;
  ownershipType?: OwnershipType;
  platformAccountId?: string;
  defaultUmaDepositAccount?: boolean;
}

/** An external account, id `ExternalAccount:<uuid>`. `accountInfo` is as created (see `AccountInfo`). */
export interface ExternalAccount {
  id: string;
  status: ExternalAccountStatus;
  currency: string;
  accountInfo: { accountType: string };
  /** Absent for platform-owned accounts. */
  customerId?: string;
  platformAccountId?: string;
  ownershipType?: OwnershipType;
  defaultUmaDepositAccount: boolean;
  /** Customers who need strong customer authentication: whether payouts to it skip the per-payment challenge. */
  beneficiaryTrustStatus?: "TRUSTED" | "UNTRUSTED";
  /** `USD_ACCOUNT` validated by micro-entries: progress of the return window (other corridors have none). */
  bankValidation?: BankValidation;
  createdAt: string;
  updatedAt: string;
}

/** Micro-entry validation of a US bank account; the account stays PENDING until the window closes. */
export interface BankValidation {
  method: "MICRO_ENTRIES";
  status: "PENDING" | "SUCCEEDED" | "FAILED";
  microEntriesSentAt: string;
  returnWindowEndsAt: string;
  completedAt?: string;
  /** The NACHA return code of the returned micro-entries; FAILED only. */
  returnCode?: string;
}

/** Filters of `GET /customers/external-accounts`. */
export interface ExternalAccountListParams extends SortedPageParams {
  customerId?: string;
  currency?: string;
}

/** Filters of `GET /platform/external-accounts`. */
export interface PlatformExternalAccountListParams extends SortedPageParams {
  currency?: string;
}

export type OwnershipVerificationMethod = "WALLET_SIGNATURE" | "LIVENESS";

export interface OwnershipChallengeRequest {
  method: OwnershipVerificationMethod;
}

/** Sign `messageToSign` exactly, character for character, before `expiresAt` (10 minutes after issue). */
export interface WalletSignatureChallenge {
  method: "WALLET_SIGNATURE";
  messageToSign: string;
  expiresAt: string;
}

/**
 * Present `verificationLink` to the person (a hosted page), or hand `token` to a provider SDK; both give
 * the same outcome, reported by `EXTERNAL_ACCOUNT.STATUS_UPDATED` or by polling. Valid 30 minutes.
 */
export interface LivenessChallenge {
  method: "LIVENESS";
  verificationLink: string;
  token?: string;
  expiresAt: string;
}

/** Told apart by `method`. */
export type OwnershipChallenge = WalletSignatureChallenge | LivenessChallenge;

/** `POST …/verify`: the wallet's signature of the open challenge's `messageToSign`. */
export interface VerifyOwnershipBody {
  /** EVM: `0x` + 130 hex (EIP-191); Solana: base58; Bitcoin: base64 (BIP-137); Tron: `0x` + 130 hex. */
  signature: string;
  /** Bitcoin only: `bip137` (default) or `electrum`. */
  signatureScheme?: "bip137" | "electrum";
}

/** Sandbox provider's SDK path: one capture, the same as submitting the hosted page. */
export interface LivenessCaptureBody {
  /** The person agreed to the biometric check; must be true. */
  consent: boolean;
  /** The photo, standard or URL-safe base64 (PNG, JPEG, GIF, WebP, BMP, HEIC or AVIF; at most 5 MB). */
  image: string;
  /** Sandbox: the provider's answer to report. */
  outcome: "PASS" | "FAIL";
}

/** `202`: recorded; the result follows a few seconds later. */
export interface LivenessCaptureResult {
  status: "SUBMITTED";
  submittedAt: string;
}
