import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sandboxPan } from "../../src/cards/pan.js";
import type { Card } from "../../src/cards/schemas.js";
import { TOKENIZATION_HPKE_INFO } from "../../src/cards/tokenize.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { activeCard, cardPlatform, issueCard, newCardholder } from "./helpers.js";

let server: TestServer;
let client: TestClient;
beforeAll(async () => {
  server = await startServer();
  client = (await cardPlatform(server)).client;
});
afterAll(() => server.close());

interface Provisioning {
  walletProvider: string;
  activationData: string;
  encryptedPassData: string;
  ephemeralPublicKey: string;
}

const suite = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes256Gcm(),
});
const bytes = (hex: string) => new Uint8Array(Buffer.from(hex, "hex")).buffer;

/** A wallet's P-256 key pair: the uncompressed public key in hex, and a function opening pass data. */
async function walletKeys() {
  const pair = await suite.kem.generateKeyPair();
  const publicHex = Buffer.from(await suite.kem.serializePublicKey(pair.publicKey)).toString("hex");
  const open = async (payload: Provisioning) => {
    const recipient = await suite.createRecipientContext({
      recipientKey: pair.privateKey,
      enc: bytes(payload.ephemeralPublicKey),
      info: new TextEncoder().encode(TOKENIZATION_HPKE_INFO).buffer,
    });
    const aad = bytes(payload.ephemeralPublicKey + publicHex);
    const plain = await recipient.open(bytes(payload.encryptedPassData), aad);
    return JSON.parse(new TextDecoder().decode(plain)) as Record<string, unknown>;
  };
  return { publicHex, open };
}

const tokenize = (c: TestClient, cardId: string, body: unknown) =>
  c.post<Provisioning>(`/cards/${cardId}/tokenize`, body);

async function body(extra: Record<string, unknown> = {}) {
  const { publicHex } = await walletKeys();
  return { walletProvider: "APPLE_PAY", deviceId: "device-1", walletPublicKey: publicHex, ...extra };
}

describe("POST /cards/{id}/tokenize", () => {
  test("an ACTIVE tokenizable card -> 200 provisioning payload; the wallet's private key opens {pan, expMonth, expYear, cardholderName}", async () => {
    const holder = await newCardholder(client, "Ada Lovelace 457");
    const card = await activeCard(server, client, holder);
    expect(card.cardCapabilities.supportsDigitalWalletTokenization).toBe(true);
    const wallet = await walletKeys();
    const res = await tokenize(client, card.id, {
      walletProvider: "GOOGLE_PAY",
      deviceId: "pixel-9",
      walletPublicKey: wallet.publicHex,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      walletProvider: "GOOGLE_PAY",
      activationData: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
      encryptedPassData: expect.stringMatching(/^[0-9a-f]+$/),
      ephemeralPublicKey: expect.stringMatching(/^04[0-9a-f]{128}$/),
    });
    expect(await wallet.open(res.body)).toEqual({
      pan: sandboxPan(card.id),
      expMonth: card.expMonth,
      expYear: card.expYear,
      cardholderName: "Ada Lovelace 457",
    });
    expect(res.text).not.toContain(sandboxPan(card.id));
  });

  test("each provisioning uses a fresh ephemeral key, and another key cannot open it", async () => {
    const card = await activeCard(server, client, await newCardholder(client));
    const wallet = await walletKeys();
    const request = { walletProvider: "APPLE_PAY", deviceId: "iphone", walletPublicKey: wallet.publicHex };
    const [a, b] = [await tokenize(client, card.id, request), await tokenize(client, card.id, request)];
    expect(a.body.ephemeralPublicKey).not.toBe(b.body.ephemeralPublicKey);
    const stranger = await walletKeys();
    await expect(stranger.open(a.body)).rejects.toThrow();
  });

  test("a platform with cardTokenization2faConfig null issues cards that cannot tokenize: 409 CONFLICT", async () => {
    const { client: plain } = await cardPlatform(server);
    expect((await plain.patch("/config", { cardTokenization2faConfig: null })).status).toBe(200);
    const card = await activeCard(server, plain, await newCardholder(plain));
    expect(card.cardCapabilities.supportsDigitalWalletTokenization).toBe(false);
    const res = await tokenize(plain, card.id, await body());
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CONFLICT" });
  });

  test("the capability is fixed at issue: turning the config off later leaves issued cards tokenizable", async () => {
    const { client: own } = await cardPlatform(server);
    const card = await activeCard(server, own, await newCardholder(own));
    expect((await own.patch("/config", { cardTokenization2faConfig: null })).status).toBe(200);
    expect((await tokenize(own, card.id, await body())).status).toBe(200);
  });

  test.each(["FROZEN", "CLOSED"] as const)("a %s card is 409 CONFLICT", async (status) => {
    const card = await activeCard(server, client, await newCardholder(client));
    expect((await client.patch(`/cards/${card.id}`, { status })).status).toBe(200);
    const res = await tokenize(client, card.id, await body());
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CONFLICT" });
  });

  test("a PROCESSING card is 409 CONFLICT", async () => {
    const holder = await newCardholder(client);
    const card = await issueCard(client, holder, { platformCardId: `tok-${Date.now()}-001` });
    expect((await tokenize(client, card.id, await body())).body).toMatchObject({ code: "CONFLICT" });
  });

  const notOnCurve = `04${"00".repeat(63)}01${"00".repeat(63)}01`;
  test.each([
    { name: "missing walletProvider", extra: { walletProvider: undefined }, field: "walletProvider" },
    { name: "unknown walletProvider", extra: { walletProvider: "SAMSUNG_PAY" }, field: "walletProvider" },
    { name: "empty deviceId", extra: { deviceId: "" }, field: "deviceId" },
    { name: "compressed key", extra: { walletPublicKey: `02${"ab".repeat(32)}` }, field: "walletPublicKey" },
    { name: "not hex", extra: { walletPublicKey: `04${"zz".repeat(64)}` }, field: "walletPublicKey" },
    { name: "a point not on P-256", extra: { walletPublicKey: notOnCurve }, field: "walletPublicKey" },
    { name: "an unknown field", extra: { pan: "4000000000000002" }, field: "pan" },
  ])("$name is 400 INVALID_INPUT on $field", async ({ extra, field }) => {
    const card = await activeCard(server, client, await newCardholder(client));
    const res = await tokenize(client, card.id, await body(extra));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "INVALID_INPUT",
      details: { errors: [expect.objectContaining({ field })] },
    });
  });

  test("a bad wallet key is 400 before the card is looked up (check order 400 -> 404)", async () => {
    const res = await tokenize(client, "Card:0190d2a1-7c4e-7b3a-9f00-1234567890ab", {
      ...(await body()),
      walletPublicKey: notOnCurve,
    });
    expect(res.status).toBe(400);
  });

  test("unknown or foreign card -> 404 NOT_FOUND", async () => {
    const card: Card = await activeCard(server, client, await newCardholder(client));
    const other = client.as(await server.newPlatform());
    expect((await tokenize(other, card.id, await body())).body).toMatchObject({ code: "NOT_FOUND" });
    expect((await tokenize(client, "Card:nonsense", await body())).body).toMatchObject({ code: "NOT_FOUND" });
  });
});
