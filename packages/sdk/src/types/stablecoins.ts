/**
 * Stablecoin wire types, mirroring packages/server/src/stablecoins/schemas.ts field for field
 * (docs/guides/stablecoins.md). Re-exported from index.ts.
 */
import type { CurrencyAmount, SortedPageParams } from "./common.js";

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

export interface MintBody {
  /** Minor units of the backing currency (cents for USD). */
  amount: number;
  /** Internal account in the backing currency that pays. */
  sourceAccountId: string;
  /** Required when the platform has several ACTIVE provider accounts. */
  stablecoinProviderAccountId?: string;
}

export interface BurnBody {
  amount: number;
  /** Internal account in the backing currency that receives the redeemed money. */
  destinationAccountId: string;
  stablecoinProviderAccountId?: string;
}

/** A mint or burn: `PROCESSING` until the provider settles it (`COMPLETED`) or rejects it (`FAILED`). */
export interface StablecoinOperation {
  id: string;
  stablecoinId: string;
  type: StablecoinOperationType;
  status: StablecoinOperationStatus;
  amount: CurrencyAmount;
  /** The internal account debited (MINT) or credited (BURN). */
  accountId: string;
  stablecoinProviderAccountId: string;
  /** The transaction that carries the fiat leg. */
  transactionId: string;
  failureReason?: "PROVIDER_REJECTED";
  completedAt?: string;
  createdAt: string;
  updatedAt: string;
}

export interface StablecoinOperationListParams extends SortedPageParams {
  type?: StablecoinOperationType;
  status?: StablecoinOperationStatus;
}
