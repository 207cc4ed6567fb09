/** `POST /crypto/estimate-withdrawal-fee` body: a stablecoin withdrawal from an internal account. */
export interface EstimateWithdrawalFeeBody {
  internalAccountId: string;
  currency: string;
  cryptoNetwork: string;
  /** Minor units of `currency`. */
  amount: number;
  destinationAddress: string;
}

/** Fees and what arrives, in minor units of the stablecoin; `networkFeeAsset` pays the network. */
export interface WithdrawalFeeEstimate {
  networkFee: number;
  networkFeeAsset: string;
  applicationFee: number;
  totalFee: number;
  netAmount: number;
}
