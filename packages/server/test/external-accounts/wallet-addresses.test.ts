import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base58, bech32, bech32m, createBase58check } from "@scure/base";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bitcoinAddressKind } from "../../src/external-accounts/wallets/addresses.js";
import { startServer, type TestServer } from "../harness.js";

type ExternalAccount = {
  id: string;
  status: string;
  currency: string;
  customerId?: string;
  ownershipType?: string;
  accountInfo: Record<string, unknown>;
};
type ErrorBody = {
  code: string;
  reason: string;
  details?: { errors: { field: string; message: string }[] };
};

let server: TestServer;
let customerId: string;
beforeAll(async () => {
  server = await startServer();
  customerId = (await server.client.post<{ id: string }>("/customers", { customerType: "INDIVIDUAL" })).body
    .id;
});
afterAll(() => server.close());

const beneficiary = { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace", countryOfResidence: "US" };
const b58check = createBase58check(sha256);
const G = secp256k1.getPublicKey(
  Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0)),
  true,
);
const segwit = (codec: typeof bech32, hrp: string, version: number, program: Uint8Array) =>
  codec.encode(hrp, [version, ...codec.toWords(program)]);
const spark = (payload: Uint8Array, hrp = "spark", codec: typeof bech32 = bech32m) =>
  codec.encode(hrp, codec.toWords(payload), 200);
const sparkPayload = Uint8Array.from([0x0a, 0x21, ...G]);
const program20 = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
const program32 = Uint8Array.from({ length: 32 }, (_, i) => i + 1);

/** The currency each network takes in these tests (walletCurrencies). */
const currencyOf = (accountType: string) =>
  accountType === "BITCOIN_WALLET" || accountType === "LIGHTNING"
    ? "BTC"
    : accountType === "SPARK_WALLET"
      ? "USDB"
      : "USDC";

function wallet(accountType: string, address: string, extra: Record<string, unknown> = {}) {
  const { accountInfo, ...rest } = extra as { accountInfo?: Record<string, unknown> };
  return {
    customerId,
    currency: currencyOf(accountType),
    accountInfo: { accountType, address, ...accountInfo },
    ...rest,
  };
}
const create = <T = ExternalAccount>(body: unknown) =>
  server.client.post<T>("/customers/external-accounts", body);

const valid: [string, string, string][] = [
  ["ETHEREUM_WALLET", "EIP-55 checksummed", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"],
  ["BASE_WALLET", "all lower case", "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"],
  ["POLYGON_WALLET", "all upper case", "0x3C44CDDDB6A900FA2B585DD299E03D12FA4293BC"],
  ["PLASMA_WALLET", "EIP-55 checksummed", "0x90F79bf6EB2c4f870365E785982E1f101E93b906"],
  ["SOLANA_WALLET", "a wallet key", "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"],
  ["SOLANA_WALLET", "32 zero bytes (system program)", "11111111111111111111111111111111"],
  ["BITCOIN_WALLET", "mainnet P2PKH", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"],
  ["BITCOIN_WALLET", "mainnet P2SH", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"],
  ["BITCOIN_WALLET", "mainnet P2WPKH (BIP-173)", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"],
  [
    "BITCOIN_WALLET",
    "mainnet P2TR (BIP-86)",
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
  ],
  ["BITCOIN_WALLET", "testnet P2PKH", "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn"],
  ["BITCOIN_WALLET", "testnet P2SH", "2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc"],
  ["BITCOIN_WALLET", "testnet P2WPKH (BIP-173)", "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"],
  ["BITCOIN_WALLET", "testnet P2TR", segwit(bech32m, "tb", 1, program32)],
  ["BITCOIN_WALLET", "upper-case P2WPKH", segwit(bech32, "bc", 0, program20).toUpperCase()],
  ["TRON_WALLET", "USDT contract", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"],
  ["TRON_WALLET", "key 1", "TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC"],
  ["SPARK_WALLET", "identity key of key 1", spark(sparkPayload)],
];

describe("valid addresses per network are accepted", () => {
  test.each(valid)("%s: %s", async (accountType, _name, address) => {
    const res = await create(wallet(accountType, address));
    expect(res.status, res.text).toBe(201);
    expect(res.body.accountInfo).toEqual({ accountType, address });
    expect(res.body.status).toBe("ACTIVE");
  });
});

const invalid: [string, string, string][] = [
  ["ETHEREUM_WALLET", "mixed case failing EIP-55", "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266"],
  ["ETHEREUM_WALLET", "39 hex digits", "0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226"],
  ["BASE_WALLET", "no 0x", "f39fd6e51aad88f6f4ce6ab8827279cfffb92266"],
  ["POLYGON_WALLET", "not hex", "0xg39fd6e51aad88f6f4ce6ab8827279cfffb92266"],
  ["SOLANA_WALLET", "31 bytes", base58.encode(program32.subarray(1))],
  ["SOLANA_WALLET", "33 bytes", base58.encode(Uint8Array.from([...program32, 1]))],
  ["SOLANA_WALLET", "not base58 (0, O, I, l)", "0OIl1111111111111111111111111111"],
  ["SOLANA_WALLET", "an EVM address", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"],
  ["BITCOIN_WALLET", "base58check checksum broken", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3"],
  ["BITCOIN_WALLET", "bech32 checksum broken", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5"],
  ["BITCOIN_WALLET", "mixed-case bech32", "bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"],
  ["BITCOIN_WALLET", "P2WSH (v0, 32 bytes)", segwit(bech32, "bc", 0, program32)],
  ["BITCOIN_WALLET", "v0 program in bech32m", segwit(bech32m, "bc", 0, program20)],
  ["BITCOIN_WALLET", "v1 program in bech32", segwit(bech32, "bc", 1, program32)],
  ["BITCOIN_WALLET", "v2 witness program", segwit(bech32m, "bc", 2, program32)],
  ["BITCOIN_WALLET", "regtest bcrt1", segwit(bech32, "bcrt", 0, program20)],
  ["BITCOIN_WALLET", "Litecoin P2PKH version 0x30", b58check.encode(Uint8Array.from([0x30, ...program20]))],
  ["BITCOIN_WALLET", "Litecoin bech32 ltc1", segwit(bech32, "ltc", 0, program20)],
  ["BITCOIN_WALLET", "a Tron address", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"],
  ["TRON_WALLET", "checksum broken", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u"],
  ["TRON_WALLET", "version byte 0x00 (a Bitcoin address)", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"],
  ["TRON_WALLET", "22 bytes", b58check.encode(Uint8Array.from([0x41, ...program20, 0]))],
  ["TRON_WALLET", "EVM hex", "0x41f39fd6e51aad88f6f4ce6ab8827279cfffb92266"],
  ["SPARK_WALLET", "legacy sp1 prefix", spark(sparkPayload, "sp")],
  ["SPARK_WALLET", "bech32 instead of bech32m", spark(sparkPayload, "spark", bech32)],
  ["SPARK_WALLET", "a 32-byte key", spark(Uint8Array.from([0x0a, 0x20, ...G.subarray(1)]))],
  [
    "SPARK_WALLET",
    "an invoice (extra protobuf fields)",
    spark(Uint8Array.from([...sparkPayload, 0x12, 0x00])),
  ],
  [
    "SPARK_WALLET",
    "a key that is not a curve point",
    spark(Uint8Array.from([0x0a, 0x21, 0x02, ...new Uint8Array(32).fill(0xff)])),
  ],
  ["SPARK_WALLET", "a Bitcoin address", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0"],
];

describe("invalid addresses -> 400 INVALID_INPUT on accountInfo.address", () => {
  test.each(invalid)("%s: %s", async (accountType, _name, address) => {
    const res = await create<ErrorBody>(wallet(accountType, address));
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["accountInfo.address"]);
  });

  test("a bad EIP-55 checksum says so", async () => {
    const res = await create<ErrorBody>(
      wallet("ETHEREUM_WALLET", "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266"),
    );
    expect(res.body.details?.errors[0]?.message).toMatch(/EIP-55/);
  });

  test("every field error comes in one 400: address, currency and the THIRD_PARTY beneficiary", async () => {
    const res = await create<ErrorBody>({
      ...wallet("SOLANA_WALLET", "not-an-address"),
      currency: "BTC",
      ownershipType: "THIRD_PARTY",
    });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field).sort()).toEqual([
      "accountInfo.address",
      "accountInfo.beneficiary",
      "currency",
    ]);
  });
});

test.each([
  ["1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "P2PKH"],
  ["mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", "P2PKH"],
  ["3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "P2SH"],
  ["2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc", "P2SH"],
  ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "P2WPKH"],
  ["tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", "P2WPKH"],
  ["bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", "P2TR"],
  [segwit(bech32m, "tb", 1, program32), "P2TR"],
  [segwit(bech32, "bc", 0, program32), null],
  ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", null],
])("bitcoinAddressKind(%s) = %s (the challenge refuses WALLET_SIGNATURE for P2TR)", (address, kind) => {
  expect(bitcoinAddressKind(address)).toBe(kind);
});

describe("equivalent wallets -> 409 DUPLICATE_EXTERNAL_ACCOUNT", () => {
  test("the same EVM address in another letter case is the same wallet", async () => {
    const address = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
    expect((await create(wallet("ETHEREUM_WALLET", address))).status).toBe(201);
    for (const other of [address.toLowerCase(), `0x${address.slice(2).toUpperCase()}`]) {
      const dup = await create<ErrorBody>(wallet("ETHEREUM_WALLET", other));
      expect(dup.status).toBe(409);
      expect(dup.body.code).toBe("DUPLICATE_EXTERNAL_ACCOUNT");
    }
  });

  test("a bech32 address in upper case is the same wallet as in lower case", async () => {
    const address = segwit(
      bech32,
      "bc",
      0,
      Uint8Array.from({ length: 20 }, (_, i) => 100 + i),
    );
    expect((await create(wallet("BITCOIN_WALLET", address))).status).toBe(201);
    expect((await create(wallet("BITCOIN_WALLET", address.toUpperCase()))).status).toBe(409);
  });

  test("the same address in another currency or on another EVM chain is another account", async () => {
    const address = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
    expect((await create(wallet("ETHEREUM_WALLET", address))).status).toBe(201);
    expect((await create({ ...wallet("ETHEREUM_WALLET", address), currency: "USDT" })).status).toBe(201);
    expect((await create(wallet("BASE_WALLET", address))).status).toBe(201);
  });
});

describe("initial status (conventions §4.1)", () => {
  const evm = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
  test.each([
    ["FIRST_PARTY self-custody", { ownershipType: "FIRST_PARTY" }, "PENDING_OWNERSHIP_VERIFICATION"],
    [
      "FIRST_PARTY custodied (vaspName)",
      { ownershipType: "FIRST_PARTY", accountInfo: { vaspName: "Coinbase" } },
      "ACTIVE",
    ],
    [
      "THIRD_PARTY with a beneficiary",
      { ownershipType: "THIRD_PARTY", accountInfo: { beneficiary } },
      "ACTIVE",
    ],
    ["no ownershipType", {}, "ACTIVE"],
  ] as const)("%s -> %s", async (_name, extra, status) => {
    const res = await create(wallet("ETHEREUM_WALLET", evm(1000 + Math.floor(Math.random() * 1e9)), extra));
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe(status);
  });

  test("a self-custody FIRST_PARTY wallet on every network starts PENDING_OWNERSHIP_VERIFICATION", async () => {
    const other = await server.client.post<{ id: string }>("/customers", { customerType: "INDIVIDUAL" });
    for (const [accountType, , address] of valid) {
      const res = await create({
        ...wallet(accountType, address, { ownershipType: "FIRST_PARTY" }),
        customerId: other.body.id,
      });
      expect(res.status, `${accountType} ${address}`).toBe(201);
      expect(res.body.status).toBe("PENDING_OWNERSHIP_VERIFICATION");
    }
  });

  test("THIRD_PARTY without a beneficiary -> 400 on accountInfo.beneficiary", async () => {
    const res = await create<ErrorBody>(wallet("ETHEREUM_WALLET", evm(42), { ownershipType: "THIRD_PARTY" }));
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["accountInfo.beneficiary"]);
  });

  test("a beneficiary missing its type's fields -> 400 naming them", async () => {
    const res = await create<ErrorBody>(
      wallet("ETHEREUM_WALLET", evm(43), { accountInfo: { beneficiary: { beneficiaryType: "INDIVIDUAL" } } }),
    );
    expect(res.body.details?.errors.map((e) => e.field)).toEqual([
      "accountInfo.beneficiary.fullName",
      "accountInfo.beneficiary.countryOfResidence",
    ]);
  });
});

describe("currencies per network", () => {
  test.each([
    ["ETHEREUM_WALLET", "0x0000000000000000000000000000000000000077", "BTC"],
    ["BITCOIN_WALLET", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "USDC"],
    ["SOLANA_WALLET", "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM", "USD"],
  ])("%s does not take %s -> 400 on currency", async (accountType, address, currency) => {
    const res = await create<ErrorBody>({ ...wallet(accountType, address), currency });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["currency"]);
  });
});

describe("LIGHTNING: exactly one of invoice, bolt12, lightningAddress", () => {
  const lightning = (info: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    customerId,
    currency: "BTC",
    accountInfo: { accountType: "LIGHTNING", ...info },
    ...extra,
  });

  test.each([
    ["lightningAddress", { lightningAddress: "ada@example.com" }],
    ["invoice", { invoice: "lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypq" }],
    [
      "bolt12",
      {
        bolt12:
          "lno1pg257enxv4ezqcneype82um50ynhxgrwdajx283qfwdpl28qqmc78ymlvhmxcsywdk5wrjnj36jryg488qwlrnzyjczlqs85ck65ycmkdk92smwt9zuewdzfe7v4aavvaz5kgv9mkk63v3s0ge0f099kssh3yc95qztx504hu92hnx8ctzhtt08pgk0texz0509tk",
      },
    ],
  ])("%s alone -> 201 ACTIVE, even FIRST_PARTY (not a self-custody wallet)", async (_name, info) => {
    const res = await create(lightning(info, { ownershipType: "FIRST_PARTY" }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe("ACTIVE");
  });

  test.each([
    ["none", {}],
    ["two", { lightningAddress: "bob@example.com", invoice: "lnbc1" }],
  ])("%s of them -> 400 on accountInfo", async (_name, info) => {
    const res = await create<ErrorBody>(lightning(info));
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["accountInfo"]);
  });
});

test("an unknown accountType -> 400 INVALID_INPUT on accountInfo.accountType", async () => {
  const res = await create<ErrorBody>(wallet("DOGECOIN_WALLET", "DFpN6QqFfUm3gKNaxN6tNcab1FArL9cZLE"));
  expect(res.status).toBe(400);
  expect(res.body.code).toBe("INVALID_INPUT");
  expect(res.body.details?.errors.map((e) => e.field)).toEqual(["accountInfo.accountType"]);
});

describe("wallets: list, get, delete, and the platform twin", () => {
  test("GET returns the wallet as created; the list filters by customer and currency; DELETE -> 204 then 404", async () => {
    const other = (await server.client.post<{ id: string }>("/customers", { customerType: "INDIVIDUAL" }))
      .body.id;
    const address = "TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC";
    const created = await create({
      ...wallet("TRON_WALLET", address, { ownershipType: "FIRST_PARTY" }),
      customerId: other,
    });
    expect((await server.client.get(`/customers/external-accounts/${created.body.id}`)).body).toEqual(
      created.body,
    );
    const usdt = await create({ ...wallet("TRON_WALLET", address), customerId: other, currency: "USDT" });
    const list = await server.client.get<{ data: ExternalAccount[]; totalCount: number }>(
      `/customers/external-accounts?customerId=${other}&currency=USDC`,
    );
    expect(list.body.data.map((a) => a.id)).toEqual([created.body.id]);
    expect((await server.client.delete(`/customers/external-accounts/${created.body.id}`)).status).toBe(204);
    expect((await server.client.get(`/customers/external-accounts/${created.body.id}`)).status).toBe(404);
    const after = await server.client.get<{ data: ExternalAccount[] }>(
      `/customers/external-accounts?customerId=${other}`,
    );
    expect(after.body.data.map((a) => a.id)).toEqual([usdt.body.id]);
  });

  test("POST /platform/external-accounts takes a wallet without customerId, with the same rules", async () => {
    const { customerId: _c, ...body } = wallet(
      "SOLANA_WALLET",
      "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
      {
        ownershipType: "FIRST_PARTY",
      },
    );
    const created = await server.client.post<ExternalAccount>("/platform/external-accounts", body);
    expect(created.status, created.text).toBe(201);
    expect(created.body).not.toHaveProperty("customerId");
    expect(created.body.status).toBe("PENDING_OWNERSHIP_VERIFICATION");
    expect((await server.client.post<ErrorBody>("/platform/external-accounts", body)).status).toBe(409);
    const bad = await server.client.post<ErrorBody>("/platform/external-accounts", {
      ...body,
      accountInfo: { accountType: "SOLANA_WALLET", address: base58.encode(program20) },
    });
    expect(bad.body.details?.errors.map((e) => e.field)).toEqual(["accountInfo.address"]);
    const list = await server.client.get<{ data: ExternalAccount[] }>("/platform/external-accounts");
    expect(list.body.data.map((a) => a.id)).toContain(created.body.id);
    expect((await server.client.delete(`/platform/external-accounts/${created.body.id}`)).status).toBe(204);
  });
});

test("check order: an invalid address is 400 INVALID_INPUT even for an unknown customer (400 before 404)", async () => {
  const res = await server.client.post("/customers/external-accounts", {
    customerId: "Customer:01a2031b-3af6-74b7-af52-45f72eabe452",
    currency: "USDC",
    accountInfo: { accountType: "ETHEREUM_WALLET", address: "0x1234" },
  });
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({
    code: "INVALID_INPUT",
    details: { errors: [{ field: "accountInfo.address" }] },
  });
});
