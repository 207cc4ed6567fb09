import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";

/** Says why an EVM address is invalid, or null: `0x` + 40 hex, and mixed case must be EIP-55 (§4.1). */
export function evmAddressProblem(address: string): string | null {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return "must be 0x followed by 40 hexadecimal digits";
  const hex = address.slice(2);
  // All-lower and all-upper carry no checksum (EIP-55); only mixed case claims one, so only it is checked.
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return null;
  return eip55(hex) === hex ? null : "fails the EIP-55 checksum (check the letter case)";
}

/** EIP-55: a letter is upper case where the matching nibble of keccak256(lowercase hex) is 8 or more. */
function eip55(hex: string): string {
  const lower = hex.toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  return [...lower].map((c, i) => (Number.parseInt(hash[i] ?? "0", 16) >= 8 ? c.toUpperCase() : c)).join("");
}

/** The 20-byte account of an uncompressed secp256k1 key (0x04 ‖ x ‖ y): keccak256(x ‖ y), last 20 bytes. */
export function keccakAccount(uncompressedKey: Uint8Array): Uint8Array {
  return keccak_256(uncompressedKey.subarray(1)).subarray(12);
}

/** keccak256 of `prefix` ‖ decimal byte length ‖ message: EIP-191 `personal_sign` and TRON's variant of it. */
export function prefixedMessageHash(prefix: string, message: string): Uint8Array {
  const bytes = utf8ToBytes(message);
  return keccak_256(concatBytes(utf8ToBytes(`${prefix}${bytes.length}`), bytes));
}
