import type { WalletAccountType } from "../schemas.js";

export interface WalletSignatureCheck {
  accountType: WalletAccountType;
  /** The address as stored on the account. */
  address: string;
  /** The exact message that was signed (its UTF-8 bytes are what the wallet signed). */
  message: string;
  signature: string;
  /** Bitcoin only: `bip137` (default) or `electrum`; ignored elsewhere. */
  scheme?: "bip137" | "electrum" | undefined;
}

/**
 * Checks a wallet's signature over a message (conventions §4.3): EIP-191 for EVM chains, ed25519 for
 * Solana, BIP-137 / Electrum for Bitcoin, TRON signed messages for Tron. Returns why it fails, or null.
 */
export function walletSignatureProblem(_check: WalletSignatureCheck): string | null {
  return "signature verification is not built yet";
}
