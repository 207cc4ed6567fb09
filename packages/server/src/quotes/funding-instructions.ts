import { randomBytes } from "node:crypto";
import { base58 } from "@scure/base";
import { fundingAccount, majorUnits } from "./funding-accounts.js";

/** Stablecoins arrive on chain: where each network's deposit address comes from (conventions §3.4 networks). */
const depositAddress: Record<string, { accountType: string; address: () => string }> = {
  ETHEREUM: { accountType: "ETHEREUM_WALLET", address: () => `0x${randomBytes(20).toString("hex")}` },
  BASE: { accountType: "BASE_WALLET", address: () => `0x${randomBytes(20).toString("hex")}` },
  POLYGON: { accountType: "POLYGON_WALLET", address: () => `0x${randomBytes(20).toString("hex")}` },
  PLASMA: { accountType: "PLASMA_WALLET", address: () => `0x${randomBytes(20).toString("hex")}` },
  SOLANA: { accountType: "SOLANA_WALLET", address: () => base58.encode(randomBytes(32)) },
};

/** Whether stablecoin funding arrives on `network` (a deposit address of it can be given). */
export const isDepositNetwork = (network: string) => Object.hasOwn(depositAddress, network);

/** A short reference the sender quotes with the transfer, so the arriving money finds its quote. */
const fundingReference = (quoteId: string) => `PAYSVC-${quoteId.replace(/-/g, "").slice(-12).toUpperCase()}`;

/**
 * Where and how to pay a funding quote: the platform's sandbox collection account in the currency
 * (funding-accounts.ts), or a deposit address. The notes state the amount in major units.
 */
export function paymentInstructions(
  source: { currency: string; cryptoNetwork?: string | undefined },
  quoteId: string,
  amount: number,
) {
  const { currency: code, cryptoNetwork: network } = source;
  const exactly = `Send exactly ${majorUnits(amount, code)} ${code}`;
  if (network !== undefined) {
    const target = depositAddress[network] as (typeof depositAddress)[string];
    return [
      {
        instructionsNotes: `${exactly} on ${network} to this address.`,
        isPlatformAccount: true,
        accountOrWalletInfo: { accountType: target.accountType, address: target.address() },
      },
    ];
  }
  const reference = fundingReference(quoteId);
  // quotes/funding.ts checkFundingRequest let through only currencies with a collection account.
  const account = fundingAccount(code, { reference, amount }) as Record<string, unknown>;
  return [
    {
      instructionsNotes: `${exactly}, quoting reference ${reference}.`,
      isPlatformAccount: true,
      accountOrWalletInfo: account,
    },
  ];
}
