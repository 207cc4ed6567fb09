/**
 * Stablecoin wire types, mirroring packages/server/src/stablecoins/schemas.ts field for field
 * (docs/guides/stablecoins.md). Re-exported from index.ts.
 */
import type { SortedPageParams } from "./common.js";

export type StablecoinNetwork = "ETHEREUM" | "BASE" | "POLYGON" | "PLASMA" | "SOLANA" | "TRON";
export type StablecoinOperationType = "MINT" | "BURN";
export type StablecoinEnablementStatus =
  | "NOT_ENABLED"
  | "PENDING_APPROVAL"
  | "ENABLING"
  | "ENABLED"
  | "DISABLED";
export type StablecoinProvider = "BRALE" | "PAXOS" | "BRIDGE" | "AGORA";
export type StablecoinOperationStatus = "PROCESSING" | "COMPLETED" | "FAILED";

export interface RegisterStablecoinBody {
  /** 2 to 12 uppercase letters or digits. */
  symbol: string;
  name: string;
  network: StablecoinNetwork;
  /** The token's contract address (EVM, TRON) or mint address (SOLANA) on `network`. */
  tokenIdentifier: string;
  /** The token's on-chain precision, 0–18. */
  decimals: number;
  /** The fiat currency the token is redeemable for one to one; default USD. */
  backingCurrency?: string;
  /** Issuer operations the token allows; default both. */
  supportedOperations?: StablecoinOperationType[];
}

/** A registered stablecoin, id `Stablecoin:<uuid>`. Mints and burns need `ENABLED` and `provisioned`. */
export interface Stablecoin {
  id: string;
  symbol: string;
  name: string;
  network: StablecoinNetwork;
  tokenIdentifier: string;
  decimals: number;
  backingCurrency: string;
  supportedOperations: StablecoinOperationType[];
  enablementStatus: StablecoinEnablementStatus;
  /** Whether the service operator provisioned the token for issuer operations (mint, burn). */
  provisioned: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface CreateStablecoinProviderAccountBody {
  provider: StablecoinProvider;
  /** The platform's account id at the provider. */
  accountReference: string;
  networks: StablecoinNetwork[];
}

/** A link to the platform's account at a stablecoin provider. */
export interface StablecoinProviderAccount {
  id: string;
  provider: StablecoinProvider;
  accountReference: string;
  networks: StablecoinNetwork[];
  status: "ACTIVE" | "REVOKED";
  revokedAt?: string;
  createdAt: string;
  updatedAt: string;
}

export interface StablecoinProviderAccountListParams extends SortedPageParams {
  status?: "ACTIVE" | "REVOKED";
}

/** The hosted `StablecoinMintFundingSource`; the sandbox provider takes `GRID_INTERNAL_ACCOUNT` only. */
export type StablecoinMintFundingSource =
  | { type: "WIRE" }
  | { type: "ACH_DEBIT"; externalAccountId: string }
  | { type: "SAME_DAY_ACH_DEBIT"; externalAccountId: string }
  | { type: "GRID_INTERNAL_ACCOUNT"; accountId: string }
  | { type: "PROVIDER_INTERNAL_BALANCE"; sourceTokenIdentifier: string; cryptoNetwork: string };

/** The hosted `StablecoinMintRequest`. */
export interface MintBody {
  /** Decimal string of the token's smallest units (10^-decimals of one token); a whole number of the backing currency's minor units. */
  amount: string;
  /** The internal account (backing currency) that pays: `{type: "GRID_INTERNAL_ACCOUNT", accountId}`. */
  fundingSource: StablecoinMintFundingSource;
  /**
   * Where the minted tokens go: an `ExternalAccount:` wallet on the stablecoin's network, or a
   * `StablecoinProviderAccount:` link whose treasury holds them (burns draw from it).
   */
  destination: { accountId: string };
  description?: string;
  /** The provider account that mints; needed with a wallet destination when several are ACTIVE. */
  stablecoinProviderAccountId?: string;
}

/** The hosted `StablecoinBurnSource`; burns take tokens from the provider treasury (`PROVIDER_INTERNAL_BALANCE`). */
export type StablecoinBurnSource =
  | { type: "EXTERNAL_ACCOUNT" }
  | { type: "GRID_INTERNAL_ACCOUNT"; accountId: string }
  | { type: "PROVIDER_INTERNAL_BALANCE" };

/**
 * The hosted `StablecoinBurnDestination` (the redeemed money is paid out to the bank account over `rail`), plus
 * `GRID_INTERNAL_ACCOUNT` (the redeemed money stays in that internal account).
 */
export type StablecoinBurnDestination =
  | {
      type: "EXTERNAL_ACCOUNT";
      externalAccountId: string;
      rail: "WIRE" | "ACH_CREDIT" | "SAME_DAY_ACH_CREDIT" | "RTP_CREDIT";
    }
  | { type: "GRID_INTERNAL_ACCOUNT"; accountId: string };

/** The hosted `StablecoinBurnRequest`, plus `stablecoinProviderAccountId` (whose treasury burns). */
export interface BurnBody {
  amount: string;
  source: StablecoinBurnSource;
  destination: StablecoinBurnDestination;
  description?: string;
  /** Required when the platform has several ACTIVE provider accounts. */
  stablecoinProviderAccountId?: string;
}

/** The hosted `StablecoinProviderEnvironment`: the platform's environment. */
export type StablecoinProviderEnvironment = "SANDBOX" | "PRODUCTION";

/** Where an operation takes from: the paying internal account (MINT) or the provider account's treasury (BURN). */
export interface StablecoinOperationSource {
  type: "GRID_INTERNAL_ACCOUNT" | "PROVIDER_INTERNAL_BALANCE";
  /** The internal account debited in the backing currency (GRID_INTERNAL_ACCOUNT). */
  accountId?: string;
}

/**
 * MINT: the external wallet, or the provider link whose treasury, received the tokens; BURN: the internal
 * account credited, or the external account paid out to (with its `rail`).
 */
export interface StablecoinOperationDestination {
  accountId: string;
  rail?: "WIRE" | "ACH_CREDIT" | "SAME_DAY_ACH_CREDIT" | "RTP_CREDIT";
}

/**
 * A mint or burn in the hosted `StablecoinOperation` shape: `PROCESSING` until the provider settles it
 * (`COMPLETED`) or rejects it (`FAILED`). The fiat leg is the transaction whose destination (mint) or
 * source (burn) names this operation's id as `operationId`.
 */
export interface StablecoinOperation {
  id: string;
  stablecoinId: string;
  operationType: StablecoinOperationType;
  status: StablecoinOperationStatus;
  /** Decimal string of the token's smallest on-chain units (10^-decimals of one token); exact, never a float. */
  amount: string;
  provider: StablecoinProvider;
  providerEnvironment: StablecoinProviderEnvironment;
  stablecoinProviderAccountId: string;
  source: StablecoinOperationSource;
  destination?: StablecoinOperationDestination;
  failureReason?: "PROVIDER_REJECTED";
  /** The request's `description`, when it had one. */
  description?: string;
  createdAt: string;
  updatedAt: string;
}

export interface StablecoinOperationListParams extends SortedPageParams {
  operationType?: StablecoinOperationType;
  status?: StablecoinOperationStatus;
}
