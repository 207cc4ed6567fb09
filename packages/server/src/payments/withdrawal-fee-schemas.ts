import { type Static, Type } from "typebox";
import { MAX_AMOUNT } from "../core/money.js";

export const EstimateWithdrawalFeeBody = Type.Object(
  {
    internalAccountId: Type.String({ minLength: 1, maxLength: 100 }),
    currency: Type.String({ minLength: 1, maxLength: 16 }),
    cryptoNetwork: Type.String({ minLength: 1, maxLength: 32 }),
    amount: Type.Integer({ minimum: 1, maximum: MAX_AMOUNT }),
    destinationAddress: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);

/** The hosted `EstimateCryptoWithdrawalFeeResponse`: fees and net amount in the stablecoin's minor units. */
export const WithdrawalFeeEstimate = Type.Object({
  networkFee: Type.Integer(),
  networkFeeAsset: Type.String(),
  applicationFee: Type.Integer(),
  totalFee: Type.Integer(),
  netAmount: Type.Integer(),
});
export type WithdrawalFeeEstimate = Static<typeof WithdrawalFeeEstimate>;
