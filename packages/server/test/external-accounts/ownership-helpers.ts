import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { expect } from "vitest";
import type { ExternalAccount } from "../../src/external-accounts/schemas.js";
import type { TestClient } from "../harness.js";

/** An EVM wallet key: its lowercase address and an EIP-191 `personal_sign` signer, as wallets sign. */
export function evmWallet() {
  const secretKey = secp256k1.utils.randomSecretKey();
  const publicKey = secp256k1.getPublicKey(secretKey, false);
  const address = `0x${bytesToHex(keccak_256(publicKey.slice(1)).slice(-20))}`;
  const sign = (message: string) => {
    const bytes = new TextEncoder().encode(message);
    const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${bytes.length}`);
    const digest = keccak_256(new Uint8Array([...prefix, ...bytes]));
    const signature = secp256k1.sign(digest, secretKey, { prehash: false, format: "recovered" });
    // noble puts the recovery bit first; wallets send r ‖ s ‖ v with v = 27 + recovery.
    return `0x${bytesToHex(signature.slice(1))}${(27 + (signature[0] ?? 0)).toString(16)}`;
  };
  return { address, sign };
}

export async function newCustomer(client: TestClient): Promise<string> {
  const res = await client.post<{ id: string }>("/customers", { customerType: "INDIVIDUAL" });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A FIRST_PARTY self-custody USDC wallet on Ethereum (PENDING_OWNERSHIP_VERIFICATION at create). */
export async function selfCustodyWallet(
  client: TestClient,
  customerId: string,
  address: string,
  extra: { accountInfo?: Record<string, unknown>; ownershipType?: string } = {},
): Promise<ExternalAccount> {
  const res = await client.post<ExternalAccount>("/customers/external-accounts", {
    customerId,
    currency: "USDC",
    ownershipType: extra.ownershipType ?? "FIRST_PARTY",
    accountInfo: { accountType: "ETHEREUM_WALLET", address, ...extra.accountInfo },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
