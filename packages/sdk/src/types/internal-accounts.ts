/** Internal account wire types, mirroring packages/server/src/customers/schemas.ts InternalAccount. */
import type { CurrencyAmount, SortedPageParams } from "./common.js";

export type InternalAccountType = "INTERNAL_FIAT" | "INTERNAL_CRYPTO" | "EMBEDDED_WALLET";
export type InternalAccountStatus = "PENDING" | "ACTIVE" | "CLOSED" | "FROZEN" | "FAILED";

export interface FundingPaymentInstruction {
  instructionsNotes: string;
  accountOrWalletInfo: {
    accountType: string;
    accountNumber: string;
    routingNumber: string;
    bankName: string;
    reference: string;
  };
}

export interface InternalAccount {
  id: string;
  /** Absent for platform-owned accounts. */
  customerId?: string;
  type: InternalAccountType;
  status: InternalAccountStatus;
  /** Available: `totalBalance` minus open card-authorization holds. */
  balance: CurrencyAmount;
  /** Ledger balance. */
  totalBalance: CurrencyAmount;
  fundingPaymentInstructions: FundingPaymentInstruction[];
  /** `EMBEDDED_WALLET` only. */
  privateEnabled?: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Filters of `GET /platform/internal-accounts` (not paginated). */
export interface InternalAccountFilters {
  /** Currency code, e.g. `USD`. */
  currency?: string;
  type?: InternalAccountType;
}

/** Filters of `GET /customers/internal-accounts`. */
export interface CustomerInternalAccountListParams extends InternalAccountFilters, SortedPageParams {
  customerId?: string;
}
