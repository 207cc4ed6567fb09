import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Stablecoin } from "../../src/stablecoins/schemas.js";
import { type Credentials, startServer, type TestClient, type TestServer } from "../harness.js";
import { evmAddress, mintBody, register, uniqueSymbol } from "./helpers.js";

let server: TestServer;
let client: TestClient;
let other: Credentials;
beforeAll(async () => {
  server = await startServer();
  client = server.client;
  other = await server.newPlatform();
});
afterAll(() => server.close());

const idPattern = /^Stablecoin:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const unknownId = "Stablecoin:0190d2a1-7c4e-7b3a-9f00-1234567890ab";
const solanaMint = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";

describe("POST /stablecoins", () => {
  test("registering a stablecoin -> 201, NOT_ENABLED, not provisioned, defaults USD and both operations", async () => {
    const tokenIdentifier = evmAddress();
    const symbol = uniqueSymbol();
    const res = await client.post<Stablecoin>("/stablecoins", {
      symbol,
      name: "Acme Dollar",
      network: "ETHEREUM",
      tokenIdentifier,
      decimals: 6,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(idPattern),
      symbol,
      name: "Acme Dollar",
      network: "ETHEREUM",
      tokenIdentifier,
      decimals: 6,
      backingCurrency: "USD",
      supportedOperations: ["MINT", "BURN"],
      enablementStatus: "NOT_ENABLED",
      provisioned: false,
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
    });
  });

  test("a Solana mint address is accepted as the token identifier", async () => {
    const coin = await register(client, { network: "SOLANA", tokenIdentifier: solanaMint });
    expect(coin.tokenIdentifier).toBe(solanaMint);
  });

  test("a token identifier that is not an address on the network -> 400 INVALID_INPUT on tokenIdentifier", async () => {
    const res = await client.post("/stablecoins", {
      symbol: uniqueSymbol(),
      name: "Bad",
      network: "ETHEREUM",
      tokenIdentifier: solanaMint,
      decimals: 6,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "INVALID_INPUT",
      details: { errors: [{ field: "tokenIdentifier" }] },
    });
  });

  test.each([
    ["symbol", { symbol: "usd coin" }],
    ["decimals", { decimals: 19 }],
    ["supportedOperations", { supportedOperations: ["MINT", "MINT"] }],
    ["backingCurrency", { backingCurrency: "USDC" }],
    ["network", { network: "BITCOIN" }],
  ])("an invalid %s -> 400 INVALID_INPUT naming it", async (field, overrides) => {
    const res = await client.post("/stablecoins", {
      symbol: uniqueSymbol(),
      name: "Bad",
      network: "ETHEREUM",
      tokenIdentifier: evmAddress(),
      decimals: 6,
      ...overrides,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field }] } });
  });

  test("a symbol the platform already registered -> 409 STABLECOIN_SYMBOL_ALREADY_EXISTS", async () => {
    const first = await register(client);
    const res = await client.post("/stablecoins", {
      symbol: first.symbol,
      name: "Again",
      network: "ETHEREUM",
      tokenIdentifier: evmAddress(),
      decimals: 6,
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "STABLECOIN_SYMBOL_ALREADY_EXISTS" });
  });

  test("a token identifier already registered on the network -> 409 STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS (EVM compared case-insensitively)", async () => {
    const first = await register(client);
    const res = await client.post("/stablecoins", {
      symbol: uniqueSymbol(),
      name: "Again",
      network: "ETHEREUM",
      tokenIdentifier: first.tokenIdentifier.toUpperCase().replace("0X", "0x"),
      decimals: 6,
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS" });
  });

  test("the same token identifier on another network is a different token", async () => {
    const first = await register(client);
    await register(client, { network: "BASE", tokenIdentifier: first.tokenIdentifier });
  });

  test("uniqueness is per platform: another platform registers the same symbol and token", async () => {
    const first = await register(client);
    const res = await client.as(other).post("/stablecoins", {
      symbol: first.symbol,
      name: "Mine too",
      network: first.network,
      tokenIdentifier: first.tokenIdentifier,
      decimals: 6,
    });
    expect(res.status).toBe(201);
  });

  test("concurrent registrations of one symbol: exactly one 201, the others 409 STABLECOIN_SYMBOL_ALREADY_EXISTS", async () => {
    const symbol = uniqueSymbol("RACE");
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        client.post("/stablecoins", {
          symbol,
          name: "Race",
          network: "ETHEREUM",
          tokenIdentifier: evmAddress(),
          decimals: 6,
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) {
      expect(r.body).toMatchObject({ code: "STABLECOIN_SYMBOL_ALREADY_EXISTS" });
    }
  });

  test("concurrent registrations of one token: exactly one 201, the others 409 STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS", async () => {
    const tokenIdentifier = evmAddress();
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        client.post("/stablecoins", {
          symbol: uniqueSymbol("TOK"),
          name: "Race",
          network: "ETHEREUM",
          tokenIdentifier,
          decimals: 6,
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) {
      expect(r.body).toMatchObject({ code: "STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS" });
    }
  });
});

describe("permissions", () => {
  test("a VIEW-only token -> 403 FORBIDDEN on every stablecoin write, and may read", async () => {
    const token = await client.post<{ id: string; clientId: string; clientSecret: string }>("/tokens", {
      name: "viewer",
      permissions: ["VIEW"],
    });
    const viewer = { ...server.platform, tokenId: token.body.id, ...token.body };
    const coin = await register(client);
    for (const [path, body] of [
      [
        "/stablecoins",
        {
          symbol: uniqueSymbol(),
          name: "V",
          network: "ETHEREUM",
          tokenIdentifier: evmAddress(),
          decimals: 6,
        },
      ],
      [`/stablecoins/${coin.id}/request-enablement`, {}],
      [`/stablecoins/${coin.id}/mints`, mintBody("InternalAccount:x", "StablecoinProviderAccount:x", "100")],
      ["/stablecoin-provider-accounts", { provider: "BRALE", accountReference: "r", networks: ["BASE"] }],
    ] as const) {
      const res = await client.post(path, body, { auth: viewer });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: "FORBIDDEN" });
    }
    expect((await client.get(`/stablecoins/${coin.id}`, { auth: viewer })).status).toBe(200);
  });
});

describe("GET /stablecoins and /stablecoins/{id}", () => {
  test("a registered stablecoin reads back unchanged", async () => {
    const coin = await register(client);
    const res = await client.get(`/stablecoins/${coin.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(coin);
  });

  test("an id with ':' encoded as %3A reads the same stablecoin", async () => {
    const coin = await register(client);
    const res = await client.get(`/stablecoins/${coin.id.replace(":", "%3A")}`);
    expect(res.body).toEqual(coin);
  });

  test.each([
    ["unknown", unknownId],
    ["malformed", "Stablecoin:nope"],
    ["wrong prefix", "Customer:0190d2a1-7c4e-7b3a-9f00-1234567890ab"],
  ])("an %s id -> 404 STABLECOIN_NOT_FOUND", async (_, id) => {
    const res = await client.get(`/stablecoins/${id}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "STABLECOIN_NOT_FOUND" });
  });

  test("another platform's stablecoin -> 404 STABLECOIN_NOT_FOUND, as if it did not exist", async () => {
    const coin = await register(client);
    const res = await client.as(other).get(`/stablecoins/${coin.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "STABLECOIN_NOT_FOUND" });
  });

  test("the list pages by cursor over the platform's own stablecoins only, newest first", async () => {
    const platform = await server.newPlatform();
    const own = server.client.as(platform);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await register(own)).id);
    await register(client);
    const first = await own.get<{
      data: Stablecoin[];
      hasMore: boolean;
      nextCursor?: string;
      totalCount: number;
    }>("/stablecoins?limit=2");
    expect(first.status).toBe(200);
    expect(first.body.totalCount).toBe(3);
    expect(first.body.hasMore).toBe(true);
    const second = await own.get<{ data: Stablecoin[]; hasMore: boolean; nextCursor?: string }>(
      `/stablecoins?limit=2&cursor=${first.body.nextCursor}`,
    );
    expect(second.body.hasMore).toBe(false);
    expect(second.body.nextCursor).toBeUndefined();
    expect([...first.body.data, ...second.body.data].map((c) => c.id)).toEqual([...ids].reverse());
  });

  test("a limit out of range -> 400 INVALID_INPUT on limit", async () => {
    const res = await client.get("/stablecoins?limit=101");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "limit" }] } });
  });
});
