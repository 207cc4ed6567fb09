import type { WalletAccountType } from "../schemas.js";

/**
 * Address checks per network (conventions §4.1). Returns why an address is invalid, or null.
 * TODO(helper): EIP-55, base58 length, bech32/bech32m and base58check checksums.
 */
export function addressProblem(accountType: WalletAccountType, address: string): string | null {
  const checks: Record<WalletAccountType, RegExp> = {
    ETHEREUM_WALLET: /^0x[0-9a-fA-F]{40}$/,
    BASE_WALLET: /^0x[0-9a-fA-F]{40}$/,
    POLYGON_WALLET: /^0x[0-9a-fA-F]{40}$/,
    PLASMA_WALLET: /^0x[0-9a-fA-F]{40}$/,
    SOLANA_WALLET: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
    BITCOIN_WALLET: /^([13mn2][1-9A-HJ-NP-Za-km-z]{25,34}|(bc|tb)1[02-9ac-hj-np-z]{8,87})$/,
    TRON_WALLET: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
    SPARK_WALLET: /^spark1[02-9ac-hj-np-z]{8,120}$/,
  };
  return checks[accountType].test(address) ? null : `is not a valid ${accountType} address`;
}

const evm = new Set<WalletAccountType>(["ETHEREUM_WALLET", "BASE_WALLET", "POLYGON_WALLET", "PLASMA_WALLET"]);

/** What makes two wallets equivalent: the address, EVM addresses compared case-insensitively. */
export function walletIdentity(accountType: WalletAccountType, address: string): string {
  return evm.has(accountType) ? address.toLowerCase() : address;
}

export function isEvm(accountType: string): boolean {
  return evm.has(accountType as WalletAccountType);
}

/** Currencies a wallet of each network can receive (docs/decisions.md "External wallets"). */
export function walletCurrencies(accountType: string): readonly string[] {
  if (accountType === "BITCOIN_WALLET" || accountType === "LIGHTNING") return ["BTC"];
  if (accountType === "SPARK_WALLET") return ["BTC", "USDB"];
  return ["USDC", "USDT", "USDB"];
}
