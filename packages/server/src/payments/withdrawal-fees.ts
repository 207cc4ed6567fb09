import type { Static } from "typebox";
import type { Deps } from "../core/deps.js";
import { ApiError, type FieldError, invalidInput } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import type { WalletAccountType } from "../external-accounts/schemas.js";
import { addressProblem } from "../external-accounts/wallets/addresses.js";
import type { EstimateWithdrawalFeeBody, WithdrawalFeeEstimate } from "./withdrawal-fee-schemas.js";

/**
 * Sandbox network fees of a stablecoin withdrawal, in the stablecoin's minor units (6 decimals: 1,000,000
 * is one dollar), and the asset that pays the network (docs/decisions.md "Crypto withdrawal fees").
 */
const networks: Record<string, { walletType: WalletAccountType; fee: number; asset: string }> = {
  ETHEREUM: { walletType: "ETHEREUM_WALLET", fee: 1_500_000, asset: "ETH" },
  BASE: { walletType: "BASE_WALLET", fee: 10_000, asset: "ETH" },
  POLYGON: { walletType: "POLYGON_WALLET", fee: 10_000, asset: "POL" },
  PLASMA: { walletType: "PLASMA_WALLET", fee: 0, asset: "XPL" },
  SOLANA: { walletType: "SOLANA_WALLET", fee: 5_000, asset: "SOL" },
  TRON: { walletType: "TRON_WALLET", fee: 1_000_000, asset: "TRX" },
};
const stablecoins = new Set(["USDC", "USDT", "USDB"]);

/**
 * `POST /crypto/estimate-withdrawal-fee`: what withdrawing `amount` of a stablecoin from an internal account
 * to `destinationAddress` on `cryptoNetwork` would cost, and what arrives. Every bad field is one FieldError
 * in one `400`; an account of another platform is `404 ACCOUNT_NOT_FOUND`; fees that leave nothing to
 * deliver are `400 AMOUNT_OUT_OF_RANGE`. Nothing is written.
 */
export async function estimateWithdrawalFee(
  deps: Deps,
  caller: Caller,
  body: Static<typeof EstimateWithdrawalFeeBody>,
): Promise<WithdrawalFeeEstimate> {
  const account = await findAccountOrThrow(deps.db, caller, body.internalAccountId);
  const network = networks[body.cryptoNetwork];
  const errors: FieldError[] = [];
  if (!stablecoins.has(body.currency))
    errors.push({ field: "currency", message: "must be a stablecoin: USDC, USDT or USDB" });
  else if (account.currency !== body.currency)
    errors.push({ field: "currency", message: `must be ${account.currency}, the currency of the account` });
  if (!network)
    errors.push({
      field: "cryptoNetwork",
      message: `must be one of ${Object.keys(networks).join(", ")}`,
      constraint: { enum: Object.keys(networks) },
    });
  const problem = network ? addressProblem(network.walletType, body.destinationAddress) : null;
  if (problem) errors.push({ field: "destinationAddress", message: problem });
  if (errors.length > 0 || !network) throw invalidInput(errors);
  const applicationFee = 0;
  const totalFee = network.fee + applicationFee;
  if (totalFee >= body.amount)
    throw new ApiError("AMOUNT_OUT_OF_RANGE", {
      reason: `Fees of ${totalFee} are not smaller than the amount of ${body.amount}; nothing would arrive.`,
    });
  return {
    networkFee: network.fee,
    networkFeeAsset: network.asset,
    applicationFee,
    totalFee,
    netAmount: body.amount - totalFee,
  };
}
