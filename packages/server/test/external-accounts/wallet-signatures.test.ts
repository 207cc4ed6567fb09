import { createPrivateKey, createPublicKey, sign as opensslSign, randomBytes } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { base58, base64, bech32, createBase58check } from "@scure/base";
import { describe, expect, test } from "vitest";
import { addressProblem } from "../../src/external-accounts/wallets/addresses.js";
import { bitcoinMessageHash } from "../../src/external-accounts/wallets/bitcoin.js";
import { walletSignatureProblem } from "../../src/external-accounts/wallets/signatures.js";

/**
 * Signatures are made the way wallets make them, with independent code where there is one: published
 * vectors (viem/ox, bitcoinjs-message, RFC 8032, TRON key 1), OpenSSL through node:crypto for Bitcoin
 * ECDSA and ed25519, and @noble only for keccak-based personal_sign, which OpenSSL cannot hash.
 */

const utf8 = (text: string) => new TextEncoder().encode(text);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const concat = (...parts: Uint8Array[]) => Uint8Array.from(Buffer.concat(parts));
const N = secp256k1.Point.Fn.ORDER;

/** The §4.2 message, with a fresh nonce. */
function challengeMessage(address: string): string {
  return [
    "paysvc wallet ownership verification",
    "I verify that I control this wallet.",
    `Address: ${address}`,
    `Nonce: ${randomBytes(16).toString("hex")}`,
    "Expires: 2030-01-01T00:10:00.000Z",
  ].join("\n");
}

/** A secp256k1 key as an OpenSSL key object and as raw public keys. */
function secpKey(secret = secp256k1.utils.randomSecretKey()) {
  const uncompressed = secp256k1.getPublicKey(secret, false);
  const openssl = createPrivateKey({
    key: {
      kty: "EC",
      crv: "secp256k1",
      d: b64url(secret),
      x: b64url(uncompressed.subarray(1, 33)),
      y: b64url(uncompressed.subarray(33)),
    },
    format: "jwk",
  });
  return { secret, uncompressed, compressed: secp256k1.getPublicKey(secret, true), openssl };
}
type SecpKey = ReturnType<typeof secpKey>;

/** The recovery id that brings `publicKey` back from r‖s over `digest` (what a wallet stores in v / the header). */
function recoveryId(rs: Uint8Array, digest: Uint8Array, publicKey: Uint8Array): number {
  const sig = secp256k1.Signature.fromBytes(rs, "compact");
  const found = [0, 1, 2, 3].find((id) => {
    try {
      return hex(sig.addRecoveryBit(id).recoverPublicKey(digest).toBytes(false)) === hex(publicKey);
    } catch {
      return false;
    }
  });
  if (found === undefined) throw new Error("no recovery id");
  return found;
}

/** The other valid signature of the same key and digest: s → n − s, which flips the recovery id's parity. */
function highS(rs: Uint8Array, recovery: number): { rs: Uint8Array; recovery: number } {
  const sig = secp256k1.Signature.fromBytes(rs, "compact");
  const flipped = new secp256k1.Signature(sig.r, sig.hasHighS() ? sig.s : N - sig.s);
  return { rs: flipped.toBytes("compact"), recovery: sig.hasHighS() ? recovery : recovery ^ 1 };
}

const keccakAccount = (key: SecpKey) => keccak_256(key.uncompressed.subarray(1)).subarray(12);

/** EIP-191 personal_sign: r‖s‖v over keccak256("\x19Ethereum Signed Message:\n" + length + message). */
function personalSign(key: SecpKey, message: string, prefix = "\x19Ethereum Signed Message:\n") {
  const bytes = utf8(message);
  const digest = keccak_256(concat(utf8(`${prefix}${bytes.length}`), bytes));
  const signed = secp256k1.sign(digest, key.secret, { prehash: false, format: "recovered" });
  return { rs: signed.subarray(1), recovery: signed[0] ?? 0 };
}
const hexSignature = ({ rs, recovery }: { rs: Uint8Array; recovery: number }, vBase = 27) =>
  `0x${hex(rs)}${(vBase + recovery).toString(16).padStart(2, "0")}`;

describe("EVM: EIP-191 personal_sign, r‖s‖v, the recovered address compared case-insensitively", () => {
  const viemAccount = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
  const viemHelloWorld =
    "0xa461f509887bd19e312c0c58467ce8ff8e300d3c1a90b608a760c5b80318eaf15fe57c96f9175d6cd4daad4663763baa7e78836e067d0163e9a2ccf2ff753f5b1b";

  test("the published viem/ox vector (anvil account 0 signs 'hello world') verifies, in any address case", () => {
    for (const address of [viemAccount, viemAccount.toLowerCase(), `0x${viemAccount.slice(2).toUpperCase()}`])
      expect(
        walletSignatureProblem({
          accountType: "ETHEREUM_WALLET",
          address,
          message: "hello world",
          signature: viemHelloWorld,
        }),
      ).toBeNull();
  });

  const key = secpKey();
  const address = `0x${hex(keccakAccount(key))}`;
  const message = challengeMessage(address);
  const signed = personalSign(key, message);

  test.each(["ETHEREUM_WALLET", "BASE_WALLET", "POLYGON_WALLET", "PLASMA_WALLET"] as const)(
    "%s: a personal_sign of the challenge by the address's key verifies, with v 27/28 and with v 0/1",
    (accountType) => {
      for (const vBase of [27, 0])
        expect(
          walletSignatureProblem({ accountType, address, message, signature: hexSignature(signed, vBase) }),
        ).toBeNull();
    },
  );

  test("a high-S signature (not normalised by the wallet) is accepted", () => {
    const signature = hexSignature(highS(signed.rs, signed.recovery));
    expect(
      walletSignatureProblem({ accountType: "ETHEREUM_WALLET", address, message, signature }),
    ).toBeNull();
  });

  test("another key, an altered message, or a raw (unprefixed) signature -> 'signature is from another key'", () => {
    const other = hexSignature(personalSign(secpKey(), message));
    const altered = message.replace("I verify", "I deny");
    const raw = secp256k1.sign(keccak_256(utf8(message)), key.secret, {
      prehash: false,
      format: "recovered",
    });
    const rawSignature = hexSignature({ rs: raw.subarray(1), recovery: raw[0] ?? 0 });
    for (const [msg, signature] of [
      [message, other],
      [altered, hexSignature(signed)],
      [message, rawSignature],
    ] as const)
      expect(
        walletSignatureProblem({ accountType: "ETHEREUM_WALLET", address, message: msg, signature }),
      ).toBe("signature is from another key");
  });

  test.each([
    ["no 0x", hexSignature(signed).slice(2)],
    ["too short", hexSignature(signed).slice(0, -2)],
    ["not hex", `${hexSignature(signed).slice(0, -4)}zz1b`],
    ["v 29", `${hexSignature(signed).slice(0, -2)}1d`],
    ["v 37 (EIP-155)", `${hexSignature(signed).slice(0, -2)}25`],
    ["r = 0", `0x${"00".repeat(32)}${hexSignature(signed).slice(66)}`],
    ["s = n", `0x${hex(signed.rs.subarray(0, 32))}${N.toString(16)}1b`],
    ["empty", ""],
  ])("a malformed signature (%s) is refused with a reason, never thrown", (_name, signature) => {
    const reason = walletSignatureProblem({ accountType: "ETHEREUM_WALLET", address, message, signature });
    expect(reason).toMatch(/^signature /);
  });
});

describe("Tron: keccak256('\\x19TRON Signed Message:\\n' + length + message), the recovered key's Tron address", () => {
  const b58check = createBase58check(sha256);
  const tronAddress = (key: SecpKey) => b58check.encode(concat(Uint8Array.of(0x41), keccakAccount(key)));

  test("the Tron address of private key 1 is the published TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC", () => {
    const one = secpKey(Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0)));
    expect(tronAddress(one)).toBe("TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC");
    expect(addressProblem("TRON_WALLET", tronAddress(one))).toBeNull();
  });

  const key = secpKey();
  const address = tronAddress(key);
  const message = challengeMessage(address);
  const signed = personalSign(key, message, "\x19TRON Signed Message:\n");

  test("a TRON signMessageV2 signature of the challenge verifies (v 27/28, v 0/1, high S)", () => {
    for (const signature of [
      hexSignature(signed),
      hexSignature(signed, 0),
      hexSignature(highS(signed.rs, signed.recovery)),
    ])
      expect(walletSignatureProblem({ accountType: "TRON_WALLET", address, message, signature })).toBeNull();
  });

  test("an Ethereum-prefixed signature, another key or an altered message is refused", () => {
    for (const [msg, signature] of [
      [message, hexSignature(personalSign(key, message))],
      [message, hexSignature(personalSign(secpKey(), message, "\x19TRON Signed Message:\n"))],
      [`${message} `, hexSignature(signed)],
    ] as const)
      expect(walletSignatureProblem({ accountType: "TRON_WALLET", address, message: msg, signature })).toBe(
        "signature is from another key",
      );
  });
});

describe("Solana: ed25519 over the UTF-8 message bytes, base58 of 64 bytes", () => {
  test("RFC 8032 test 2 (message 'r') verifies", () => {
    const publicKey = Buffer.from("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "hex");
    const signature = Buffer.from(
      "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
      "hex",
    );
    const address = base58.encode(publicKey);
    expect(addressProblem("SOLANA_WALLET", address)).toBeNull();
    expect(
      walletSignatureProblem({
        accountType: "SOLANA_WALLET",
        address,
        message: "r",
        signature: base58.encode(signature),
      }),
    ).toBeNull();
  });

  const key = ed25519Key();
  const address = base58.encode(key.publicKey);
  const message = challengeMessage(address);
  const signature = base58.encode(opensslSign(null, Buffer.from(message, "utf8"), key.openssl));

  test("an OpenSSL ed25519 signature of the challenge (as Phantom's signMessage makes) verifies", () => {
    expect(walletSignatureProblem({ accountType: "SOLANA_WALLET", address, message, signature })).toBeNull();
  });

  test("another key or an altered message does not verify", () => {
    const otherAddress = base58.encode(ed25519Key().publicKey);
    for (const [addr, msg] of [
      [otherAddress, message],
      [address, `${message}!`],
    ] as const)
      expect(
        walletSignatureProblem({ accountType: "SOLANA_WALLET", address: addr, message: msg, signature }),
      ).toBe("signature does not verify for this address and message");
  });

  test.each([
    ["not base58", "0OIl"],
    ["63 bytes", base58.encode(randomBytes(63))],
    ["hex", randomBytes(64).toString("hex")],
  ])("a malformed signature (%s) is refused", (_name, bad) => {
    expect(walletSignatureProblem({ accountType: "SOLANA_WALLET", address, message, signature: bad })).toBe(
      "signature must be base58 of 64 bytes",
    );
  });

  test("a small-order address is no one's key: refused even with a forged-looking signature", () => {
    const identity = base58.encode(Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0)));
    expect(
      walletSignatureProblem({ accountType: "SOLANA_WALLET", address: identity, message, signature }),
    ).toMatch(/not a usable ed25519 public key/);
  });
});

describe("Bitcoin: base64 of a 65-byte compact signature over the signed-message double-SHA-256", () => {
  const b58check = createBase58check(sha256);
  const hash160 = (bytes: Uint8Array) => ripemd160(sha256(bytes));
  const addressesOf = (key: SecpKey, testnet: boolean) => ({
    "P2PKH uncompressed": b58check.encode(
      concat(Uint8Array.of(testnet ? 0x6f : 0x00), hash160(key.uncompressed)),
    ),
    P2PKH: b58check.encode(concat(Uint8Array.of(testnet ? 0x6f : 0x00), hash160(key.compressed))),
    "P2SH-P2WPKH": b58check.encode(
      concat(
        Uint8Array.of(testnet ? 0xc4 : 0x05),
        hash160(concat(Uint8Array.of(0x00, 0x14), hash160(key.compressed))),
      ),
    ),
    P2WPKH: bech32.encode(testnet ? "tb" : "bc", [0, ...bech32.toWords(hash160(key.compressed))]),
  });
  type Kind = keyof ReturnType<typeof addressesOf>;
  const kinds: Kind[] = ["P2PKH uncompressed", "P2PKH", "P2SH-P2WPKH", "P2WPKH"];
  /** The first header of each BIP-137 range; the recovery id (0–3) is added to it. */
  const bip137Base: Record<Kind, number> = {
    "P2PKH uncompressed": 27,
    P2PKH: 31,
    "P2SH-P2WPKH": 35,
    P2WPKH: 39,
  };

  /** As Bitcoin Core's signmessage does it, with OpenSSL's ECDSA (which does not normalise S). */
  function signMessage(key: SecpKey, message: string, headerBase: number, { forceHighS = false } = {}) {
    const bytes = utf8(message);
    if (bytes.length >= 0xfd) throw new Error("this helper writes a one-byte varint");
    const once = sha256(concat(utf8("\x18Bitcoin Signed Message:\n"), Uint8Array.of(bytes.length), bytes));
    const rs = Uint8Array.from(opensslSign("sha256", once, { key: key.openssl, dsaEncoding: "ieee-p1363" }));
    const found = { rs, recovery: recoveryId(rs, sha256(once), key.uncompressed) };
    const signed = forceHighS ? highS(found.rs, found.recovery) : found;
    return base64.encode(concat(Uint8Array.of(headerBase + signed.recovery), signed.rs));
  }
  const verify = (address: string, message: string, signature: string, scheme?: "bip137" | "electrum") =>
    walletSignatureProblem({ accountType: "BITCOIN_WALLET", address, message, signature, scheme });

  const fixtureMessage = "vires is numeris";
  const bitcoinjsVectors: [string, string, string][] = [
    [
      "27–30 uncompressed P2PKH",
      "16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM",
      "G8JawPtQOrybrSP1WHQnQPr67B9S3qrxBrl1mlzoTJOSHEpmnF7D3+t+LX0Xei9J20B5AIdPbeL3AaTBZ4N3bY0=",
    ],
    [
      "31–34 compressed P2PKH",
      "1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs",
      "H8JawPtQOrybrSP1WHQnQPr67B9S3qrxBrl1mlzoTJOSHEpmnF7D3+t+LX0Xei9J20B5AIdPbeL3AaTBZ4N3bY0=",
    ],
    [
      "35–38 P2SH-P2WPKH",
      "3JvL6Ymt8MVWiCNHC7oWU6nLeHNJKLZGLN",
      "JF8nHqFr3K2UKYahhX3soVeoW8W1ECNbr0wfck7lzyXjCS5Q16Ek45zyBuy1Fiy9sTPKVgsqqOuPvbycuVSSVl8=",
    ],
    [
      "39–42 P2WPKH",
      "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
      "KF8nHqFr3K2UKYahhX3soVeoW8W1ECNbr0wfck7lzyXjCS5Q16Ek45zyBuy1Fiy9sTPKVgsqqOuPvbycuVSSVl8=",
    ],
  ];

  test.each(bitcoinjsVectors)(
    "bitcoinjs-message fixture, header %s, verifies with bip137",
    (_r, address, signature) => {
      expect(verify(address, fixtureMessage, signature)).toBeNull();
    },
  );

  test("bitcoinjs-message invalid fixtures are refused: wrong message, compressed/uncompressed cross-checks", () => {
    const [uncompressed, compressed] = bitcoinjsVectors;
    expect(verify(uncompressed?.[1] ?? "", "foobar", uncompressed?.[2] ?? "")).toBe(
      "signature is from another key",
    );
    expect(verify(uncompressed?.[1] ?? "", fixtureMessage, compressed?.[2] ?? "")).toBe(
      "signature is from another key",
    );
    expect(verify(compressed?.[1] ?? "", fixtureMessage, uncompressed?.[2] ?? "")).toBe(
      "signature is from another key",
    );
  });

  test("electrum: the fixture's compressed signature (header 32) verifies for key 1's P2PKH, P2SH-P2WPKH and P2WPKH", () => {
    const electrum =
      "IF8nHqFr3K2UKYahhX3soVeoW8W1ECNbr0wfck7lzyXjCS5Q16Ek45zyBuy1Fiy9sTPKVgsqqOuPvbycuVSSVl8=";
    const one = addressesOf(secpKey(Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0))), false);
    expect([one["P2SH-P2WPKH"], one.P2WPKH]).toEqual([
      "3JvL6Ymt8MVWiCNHC7oWU6nLeHNJKLZGLN",
      "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
    ]);
    for (const address of [one.P2PKH, one["P2SH-P2WPKH"], one.P2WPKH])
      expect(verify(address, fixtureMessage, electrum, "electrum")).toBeNull();
    expect(verify(one.P2WPKH, fixtureMessage, electrum, "bip137")).toBe(
      "signature header is for a P2PKH address, not P2WPKH",
    );
  });

  test("the signed-message digest matches the bitcoinjs-message magicHash fixtures, and a 253-byte message takes a 3-byte varint", () => {
    expect(hex(bitcoinMessageHash(""))).toBe(
      "80e795d4a4caadd7047af389d9f7f220562feb6196032e2131e10563352c4bcc",
    );
    expect(hex(bitcoinMessageHash("Vires is Numeris"))).toBe(
      "f8a5affbef4a3241b19067aa694562f64f513310817297089a8929a930f4f933",
    );
    const long = "x".repeat(253);
    const expected = sha256(
      sha256(concat(utf8("\x18Bitcoin Signed Message:\n"), Uint8Array.of(0xfd, 253, 0), utf8(long))),
    );
    expect(hex(bitcoinMessageHash(long))).toBe(hex(expected));
  });

  const key = secpKey();
  describe.each([
    ["mainnet", false],
    ["testnet", true],
  ] as const)("%s addresses", (_network, testnet) => {
    const addresses = addressesOf(key, testnet);

    test.each(kinds)(
      "bip137 %s: an OpenSSL-signed challenge with its range's header verifies, low or high S",
      (kind) => {
        const message = challengeMessage(addresses[kind]);
        for (const forceHighS of [false, true])
          expect(
            verify(addresses[kind], message, signMessage(key, message, bip137Base[kind], { forceHighS })),
          ).toBeNull();
      },
    );

    test.each(kinds)("bip137 %s: every other range's header is refused", (kind) => {
      const message = challengeMessage(addresses[kind]);
      for (const other of kinds.filter((k) => k !== kind)) {
        const reason = verify(addresses[kind], message, signMessage(key, message, bip137Base[other]));
        expect(reason, `${kind} signed as ${other}`).not.toBeNull();
      }
    });

    test.each(["P2PKH", "P2SH-P2WPKH", "P2WPKH"] as const)(
      "electrum %s: a compressed-key header (31–34) verifies; 35–42 and, for segwit, 27–30 are refused",
      (kind) => {
        const message = challengeMessage(addresses[kind]);
        expect(verify(addresses[kind], message, signMessage(key, message, 31), "electrum")).toBeNull();
        expect(verify(addresses[kind], message, signMessage(key, message, 39), "electrum")).toMatch(
          /header byte must be 27–34/,
        );
        const uncompressedHeader = verify(
          addresses[kind],
          message,
          signMessage(key, message, 27),
          "electrum",
        );
        expect(uncompressedHeader === null).toBe(false);
      },
    );

    test("electrum: an uncompressed-key header (27–30) verifies for the uncompressed P2PKH address", () => {
      const address = addresses["P2PKH uncompressed"];
      const message = challengeMessage(address);
      expect(verify(address, message, signMessage(key, message, 27), "electrum")).toBeNull();
    });
  });

  test("another key, an altered message, or the wrong recovery id within the range -> 'signature is from another key'", () => {
    const address = addressesOf(key, false).P2WPKH;
    const message = challengeMessage(address);
    const signature = signMessage(key, message, 39);
    const bytes = base64.decode(signature);
    const wrongRecovery = base64.encode(
      concat(Uint8Array.of(39 + (((bytes[0] ?? 0) - 39) ^ 1)), bytes.subarray(1)),
    );
    for (const [msg, sig] of [
      [message, signMessage(secpKey(), message, 39)],
      [message.replace("Nonce", "nonce"), signature],
      [message, wrongRecovery],
    ] as const)
      expect(verify(address, msg, sig)).toBe("signature is from another key");
  });

  test.each([
    ["not base64", "not base64!"],
    ["64 bytes", base64.encode(randomBytes(64))],
    ["hex", randomBytes(65).toString("hex")],
    ["header 26", base64.encode(concat(Uint8Array.of(26), randomBytes(64)))],
    ["header 43", base64.encode(concat(Uint8Array.of(43), randomBytes(64)))],
    ["r = 0", base64.encode(concat(Uint8Array.of(39), new Uint8Array(32), randomBytes(32)))],
    ["r ≥ n", base64.encode(concat(Uint8Array.of(39), new Uint8Array(32).fill(0xff), randomBytes(32)))],
  ])("a malformed signature (%s) is refused with a reason, never thrown", (_name, signature) => {
    const address = addressesOf(key, false).P2WPKH;
    expect(verify(address, challengeMessage(address), signature)).toMatch(/^signature /);
  });

  test("a P2TR address cannot sign a BIP-137 message: refused, pointing to LIVENESS", () => {
    const address = "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0";
    expect(verify(address, "m", signMessage(key, "m", 39))).toMatch(/P2TR.*LIVENESS/);
  });
});

test("SPARK_WALLET has no signature check (LIVENESS only)", () => {
  expect(
    walletSignatureProblem({ accountType: "SPARK_WALLET", address: "spark1x", message: "m", signature: "s" }),
  ).toMatch(/LIVENESS/);
});

/** An ed25519 key made by OpenSSL (PKCS#8 around a random seed) and its raw 32-byte public key. */
function ed25519Key() {
  const pkcs8 = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), randomBytes(32)]);
  const openssl = createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" });
  const x = createPublicKey(openssl).export({ format: "jwk" }).x;
  if (!x) throw new Error("no public key");
  return { openssl, publicKey: Uint8Array.from(Buffer.from(x, "base64url")) };
}
