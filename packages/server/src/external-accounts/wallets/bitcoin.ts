import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { bech32, bech32m, createBase58check } from "@scure/base";

/** The Bitcoin address kinds we accept (conventions §4.1); P2SH covers P2SH-P2WPKH, which it cannot tell apart. */
export type BitcoinAddressKind = "P2PKH" | "P2SH" | "P2WPKH" | "P2TR";

/** A decoded address: its kind, its network and the hash or witness program it pays to. */
export interface BitcoinAddress {
  kind: BitcoinAddressKind;
  testnet: boolean;
  /** hash160 for P2PKH/P2SH/P2WPKH, the 32-byte x-only key for P2TR. */
  program: Uint8Array;
}

export const base58check = createBase58check(sha256);

const versions: Record<number, Pick<BitcoinAddress, "kind" | "testnet">> = {
  0: { kind: "P2PKH", testnet: false },
  5: { kind: "P2SH", testnet: false },
  111: { kind: "P2PKH", testnet: true },
  196: { kind: "P2SH", testnet: true },
};
// `bcrt` (regtest) is refused: no payout can reach a regtest chain (docs/decisions.md "External wallets").
const hrps: Record<string, boolean> = { bc: false, tb: true };

function decodeBase58(address: string): BitcoinAddress | string {
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(address);
  } catch {
    return "is not a Bitcoin address: base58check or bech32 decoding fails";
  }
  const version = versions[bytes[0] ?? -1];
  if (bytes.length !== 21 || !version) return "is not a Bitcoin address: unknown version byte or length";
  return { ...version, program: bytes.subarray(1) };
}

function decodeSegwit(address: string): BitcoinAddress | string {
  // v0 programs use bech32 (BIP-173), v1+ use bech32m (BIP-350); the other checksum is a decoding failure.
  const v0 = bech32.decodeUnsafe(address);
  const v1 = v0 ? undefined : bech32m.decodeUnsafe(address);
  const decoded = v0 ?? v1;
  if (!decoded) return "is not a Bitcoin address: bech32 checksum fails";
  const testnet = hrps[decoded.prefix];
  if (testnet === undefined)
    return "is not a Bitcoin address: the prefix must be bc1 (mainnet) or tb1 (testnet)";
  const [version, ...words] = decoded.words;
  let program: Uint8Array;
  try {
    program = bech32.fromWords(words);
  } catch {
    return "is not a Bitcoin address: the witness program does not decode";
  }
  if (version === 0 && v0 && program.length === 20) return { kind: "P2WPKH", testnet, program };
  if (version === 1 && v1 && program.length === 32) return { kind: "P2TR", testnet, program };
  return "is not a supported Bitcoin address: only P2PKH, P2SH, P2WPKH and P2TR";
}

/** Decodes an address, or says why it is not one we accept. */
export function decodeBitcoinAddress(address: string): BitcoinAddress | string {
  // Bech32 strings carry the separator `1` after the hrp; base58 never starts with a lowercase hrp + `1`.
  return /^(bc|tb|bcrt)1/i.test(address) ? decodeSegwit(address) : decodeBase58(address);
}

export function hash160(bytes: Uint8Array): Uint8Array {
  return ripemd160(sha256(bytes));
}

/** The P2SH-P2WPKH script hash of a compressed key: hash160 of the redeem script `OP_0 <20-byte key hash>`. */
export function nestedSegwitHash(compressedKey: Uint8Array): Uint8Array {
  return hash160(concatBytes(Uint8Array.of(0x00, 0x14), hash160(compressedKey)));
}

function varint(n: number): Uint8Array {
  if (n < 0xfd) return Uint8Array.of(n);
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >>> 8);
  return Uint8Array.of(0xfe, n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24);
}

const magic = utf8ToBytes("\x18Bitcoin Signed Message:\n");

/** The digest Bitcoin wallets sign: double-SHA-256 of the magic prefix, varint(length) and the message. */
export function bitcoinMessageHash(message: string): Uint8Array {
  const bytes = utf8ToBytes(message);
  return sha256(sha256(concatBytes(magic, varint(bytes.length), bytes)));
}
