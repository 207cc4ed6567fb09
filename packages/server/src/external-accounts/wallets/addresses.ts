import { secp256k1 } from "@noble/curves/secp256k1.js";
import { base58, bech32m } from "@scure/base";
import type { WalletAccountType } from "../schemas.js";
import { type BitcoinAddressKind, base58check, decodeBitcoinAddress } from "./bitcoin.js";
import { evmAddressProblem } from "./evm.js";

export type { BitcoinAddressKind } from "./bitcoin.js";

function solanaAddressProblem(address: string): string | null {
  try {
    if (base58.decode(address).length === 32) return null;
  } catch {
    // falls through to the same answer as a wrong length
  }
  return "must be the base58 encoding of 32 bytes";
}

function bitcoinAddressProblem(address: string): string | null {
  const decoded = decodeBitcoinAddress(address);
  return typeof decoded === "string" ? decoded : null;
}

/** Tron: base58check of 21 bytes, the first `0x41`, the rest the account's 20-byte keccak hash. */
export function decodeTronAddress(address: string): Uint8Array | null {
  try {
    const bytes = base58check.decode(address);
    return bytes.length === 21 && bytes[0] === 0x41 ? bytes.subarray(1) : null;
  } catch {
    return null;
  }
}

/**
 * Spark: bech32m with hrp `spark` (mainnet, conventions §4.1) over the SparkAddress protobuf of a plain
 * address: field 1 (`0x0a`), length 33 (`0x21`), then a compressed secp256k1 identity key that must be a
 * curve point. Invoices (extra protobuf fields) and other networks are refused (docs/decisions.md).
 */
function sparkAddressProblem(address: string): string | null {
  const decoded = bech32m.decodeUnsafe(address);
  if (decoded?.prefix !== "spark") return "must be a bech32m spark1… address";
  const payload = bech32m.fromWordsUnsafe(decoded.words);
  if (payload?.length !== 35 || payload[0] !== 0x0a || payload[1] !== 0x21)
    return "must encode exactly one identity public key";
  try {
    secp256k1.Point.fromBytes(payload.subarray(2));
    return null;
  } catch {
    return "must encode a valid secp256k1 identity public key";
  }
}

/** Address checks per network (conventions §4.1). Returns why an address is invalid, or null. */
export function addressProblem(accountType: WalletAccountType, address: string): string | null {
  switch (accountType) {
    case "ETHEREUM_WALLET":
    case "BASE_WALLET":
    case "POLYGON_WALLET":
    case "PLASMA_WALLET":
      return evmAddressProblem(address);
    case "SOLANA_WALLET":
      return solanaAddressProblem(address);
    case "BITCOIN_WALLET":
      return bitcoinAddressProblem(address);
    case "TRON_WALLET":
      return decodeTronAddress(address) ? null : "must be a base58check T… address of 21 bytes starting 0x41";
    case "SPARK_WALLET":
      return sparkAddressProblem(address);
  }
}

/** The kind of a valid Bitcoin address, null if it is not one. The challenge refuses WALLET_SIGNATURE on P2TR. */
export function bitcoinAddressKind(address: string): BitcoinAddressKind | null {
  const decoded = decodeBitcoinAddress(address);
  return typeof decoded === "string" ? null : decoded.kind;
}

const evm = new Set<WalletAccountType>(["ETHEREUM_WALLET", "BASE_WALLET", "POLYGON_WALLET", "PLASMA_WALLET"]);

/**
 * What makes two wallets equivalent: the address, compared case-insensitively where case carries no
 * meaning: EVM hex (EIP-55 case is only a checksum) and bech32 (BIP-173 allows all upper case).
 */
export function walletIdentity(accountType: WalletAccountType, address: string): string {
  const bech32 =
    accountType === "SPARK_WALLET" || (accountType === "BITCOIN_WALLET" && /^(bc|tb)1/i.test(address));
  return evm.has(accountType) || bech32 ? address.toLowerCase() : address;
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
