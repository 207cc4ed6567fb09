import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex, equalBytes, hexToBytes } from "@noble/curves/utils.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { base58, base64 } from "@scure/base";
import type { WalletAccountType } from "../schemas.js";
import { decodeTronAddress } from "./addresses.js";
import {
  type BitcoinAddressKind,
  bitcoinMessageHash,
  decodeBitcoinAddress,
  hash160,
  nestedSegwitHash,
} from "./bitcoin.js";
import { keccakAccount, prefixedMessageHash } from "./evm.js";

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

const doesNotDecode = "signature does not decode";
const otherKey = "signature is from another key";

/**
 * Checks a wallet's signature over a message (conventions §4.3): EIP-191 for EVM chains, ed25519 for
 * Solana, BIP-137 / Electrum for Bitcoin, TRON signed messages for Tron. Returns why it fails, or null.
 * Never throws: whatever a client sends is an answer, not a 500.
 */
export function walletSignatureProblem(check: WalletSignatureCheck): string | null {
  try {
    switch (check.accountType) {
      case "ETHEREUM_WALLET":
      case "BASE_WALLET":
      case "POLYGON_WALLET":
      case "PLASMA_WALLET":
        return evmProblem(check);
      case "TRON_WALLET":
        return tronProblem(check);
      case "SOLANA_WALLET":
        return solanaProblem(check);
      case "BITCOIN_WALLET":
        return bitcoinProblem(check);
      case "SPARK_WALLET":
        return "SPARK_WALLET ownership is verified by LIVENESS, not by signature";
    }
  } catch {
    return doesNotDecode;
  }
}

/**
 * The signer's public key from r‖s, a recovery id and the signed digest, or null. Recovery does not
 * reject high-S: wallets outside Bitcoin Core and ethers do not all normalise s, and a high-S twin
 * recovers the same key, so accepting it lets no one in who could not sign anyway.
 */
function recoverKey(rs: Uint8Array, recovery: number, digest: Uint8Array) {
  try {
    return secp256k1.Signature.fromBytes(rs, "compact").addRecoveryBit(recovery).recoverPublicKey(digest);
  } catch {
    return null;
  }
}

/** `0x` + r‖s‖v as 65 bytes, with v 27/28 or 0/1 turned into a recovery id. */
function decodeHexSignature(signature: string): { rs: Uint8Array; recovery: number } | string {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature))
    return "signature must be 0x followed by 130 hexadecimal digits";
  const bytes = hexToBytes(signature.slice(2));
  const v = bytes[64] ?? -1;
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) return "signature recovery byte v must be 27, 28, 0 or 1";
  return { rs: bytes.subarray(0, 64), recovery };
}

/** The 20-byte keccak account of the key that signed `prefix`-wrapped `message`, or why there is none. */
function recoverKeccakAccount(prefix: string, { message, signature }: WalletSignatureCheck) {
  const decoded = decodeHexSignature(signature);
  if (typeof decoded === "string") return decoded;
  const key = recoverKey(decoded.rs, decoded.recovery, prefixedMessageHash(prefix, message));
  return key ? keccakAccount(key.toBytes(false)) : doesNotDecode;
}

/** EIP-191 `personal_sign`; EIP-1271 contract wallets are not supported (§4.3). */
function evmProblem(check: WalletSignatureCheck): string | null {
  const account = recoverKeccakAccount("\x19Ethereum Signed Message:\n", check);
  if (typeof account === "string") return account;
  return `0x${bytesToHex(account)}` === check.address.toLowerCase() ? null : otherKey;
}

/** TRON's signMessageV2 prefix, hashed like EIP-191 (§4.3 "our decision"). */
function tronProblem(check: WalletSignatureCheck): string | null {
  const expected = decodeTronAddress(check.address);
  if (!expected) return "the account's address is not a Tron address";
  const account = recoverKeccakAccount("\x19TRON Signed Message:\n", check);
  if (typeof account === "string") return account;
  return equalBytes(account, expected) ? null : otherKey;
}

function solanaProblem({ address, message, signature }: WalletSignatureCheck): string | null {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(signature);
  } catch {
    return "signature must be base58 of 64 bytes";
  }
  if (bytes.length !== 64) return "signature must be base58 of 64 bytes";
  const key = base58.decode(address);
  // A small-order key (or an off-curve program address) is no one's key; a small-order one would
  // verify forged signatures, so it is refused outright, as ed25519-dalek's verify_strict does.
  let point: ReturnType<typeof ed25519.Point.fromBytes>;
  try {
    point = ed25519.Point.fromBytes(key);
  } catch {
    return "the account's address is not an ed25519 public key";
  }
  if (point.isSmallOrder()) return "the account's address is not a usable ed25519 public key";
  const valid = ed25519.verify(bytes, utf8ToBytes(message), key, { zip215: false });
  return valid ? null : "signature does not verify for this address and message";
}

type Candidate = { kind: BitcoinAddressKind; program: Uint8Array };

/** Header groups of BIP-137, in order from header 27: four recovery ids each. */
const bip137Groups = ["P2PKH uncompressed", "P2PKH", "P2SH", "P2WPKH"] as const;

/**
 * BIP-137: the header says which address type the key hash is for. Electrum: headers 27–34 only say
 * whether the key is compressed, so every address type a compressed key can have is tried.
 */
function bitcoinProblem({ address, message, signature, scheme }: WalletSignatureCheck): string | null {
  const target = decodeBitcoinAddress(address);
  if (typeof target === "string") return "the account's address is not a Bitcoin address";
  if (target.kind === "P2TR") return "a P2TR address cannot sign a BIP-137 message; use LIVENESS";
  let bytes: Uint8Array;
  try {
    bytes = base64.decode(signature);
  } catch {
    return "signature must be base64 of 65 bytes";
  }
  if (bytes.length !== 65) return "signature must be base64 of 65 bytes";
  const header = bytes[0] ?? 0;
  const electrum = scheme === "electrum";
  if (header < 27 || header > (electrum ? 34 : 42))
    return `signature header byte must be 27–${electrum ? 34 : 42} for ${electrum ? "electrum" : "bip137"}`;
  const group = bip137Groups[(header - 27) >> 2] ?? "P2PKH";
  const point = recoverKey(bytes.subarray(1), (header - 27) & 3, bitcoinMessageHash(message));
  if (!point) return doesNotDecode;
  const key = point.toBytes(group !== "P2PKH uncompressed");
  const keyHash = hash160(key);
  const all: Record<(typeof bip137Groups)[number], Candidate> = {
    "P2PKH uncompressed": { kind: "P2PKH", program: keyHash },
    P2PKH: { kind: "P2PKH", program: keyHash },
    P2SH: { kind: "P2SH", program: nestedSegwitHash(key) },
    P2WPKH: { kind: "P2WPKH", program: keyHash },
  };
  // Segwit needs a compressed key, so an uncompressed Electrum header can only be P2PKH.
  const candidates =
    !electrum || group === "P2PKH uncompressed" ? [all[group]] : [all.P2PKH, all.P2SH, all.P2WPKH];
  if (!candidates.some((c) => c.kind === target.kind))
    return `signature header is for a ${all[group].kind} address, not ${target.kind}`;
  const match = candidates.some((c) => c.kind === target.kind && equalBytes(c.program, target.program));
  return match ? null : otherKey;
}
