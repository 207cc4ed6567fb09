import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { StablecoinProviderAccount } from "../../src/stablecoins/schemas.js";
import { type Credentials, startServer, type TestClient, type TestServer } from "../harness.js";
import { linkProvider } from "./helpers.js";

let server: TestServer;
let client: TestClient;
let other: Credentials;
beforeAll(async () => {
  server = await startServer();
  client = server.client;
  other = await server.newPlatform();
});
afterAll(() => server.close());

const idPattern = /^StablecoinProviderAccount:[0-9a-f-]{36}$/;
type PageOf<T> = { data: T[]; hasMore: boolean; nextCursor?: string; totalCount: number };

describe("stablecoin provider accounts", () => {
  test("linking a provider account -> 201 ACTIVE link", async () => {
    const res = await client.post<StablecoinProviderAccount>("/stablecoin-provider-accounts", {
      provider: "PAXOS",
      accountReference: "paxos-acct-1",
      networks: ["ETHEREUM"],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(idPattern),
      provider: "PAXOS",
      accountReference: "paxos-acct-1",
      networks: ["ETHEREUM"],
      status: "ACTIVE",
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
    });
    expect((await client.get(`/stablecoin-provider-accounts/${res.body.id}`)).body).toEqual(res.body);
  });

  test.each([
    ["provider", { provider: "ACME" }],
    ["networks", { networks: [] }],
    ["accountReference", { accountReference: "" }],
  ])("an invalid %s -> 400 INVALID_INPUT naming it", async (field, overrides) => {
    const res = await client.post("/stablecoin-provider-accounts", {
      provider: "BRALE",
      accountReference: "a",
      networks: ["ETHEREUM"],
      ...overrides,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field }] } });
  });

  test("revoking a link -> 200 REVOKED with revokedAt; revoking again answers it unchanged", async () => {
    const link = await linkProvider(client);
    const res = await client.post<StablecoinProviderAccount>(
      `/stablecoin-provider-accounts/${link.id}/revoke`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: link.id, status: "REVOKED", revokedAt: expect.any(String) });
    const again = await client.post(`/stablecoin-provider-accounts/${link.id}/revoke`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
  });

  test("the list pages over the platform's own links and filters by status", async () => {
    const own = client.as(await server.newPlatform());
    const active = await linkProvider(own);
    const revoked = await linkProvider(own);
    await own.post(`/stablecoin-provider-accounts/${revoked.id}/revoke`);
    await linkProvider(client);
    const all = await own.get<PageOf<StablecoinProviderAccount>>("/stablecoin-provider-accounts?limit=1");
    expect(all.body.totalCount).toBe(2);
    expect(all.body.hasMore).toBe(true);
    const next = await own.get<PageOf<StablecoinProviderAccount>>(
      `/stablecoin-provider-accounts?limit=1&cursor=${all.body.nextCursor}`,
    );
    expect([...all.body.data, ...next.body.data].map((a) => a.id)).toEqual([revoked.id, active.id]);
    const onlyActive = await own.get<PageOf<StablecoinProviderAccount>>(
      "/stablecoin-provider-accounts?status=ACTIVE",
    );
    expect(onlyActive.body.data.map((a) => a.id)).toEqual([active.id]);
  });

  test.each([
    ["unknown", "StablecoinProviderAccount:0190d2a1-7c4e-7b3a-9f00-1234567890ab"],
    ["malformed", "StablecoinProviderAccount:x"],
  ])("an %s link id -> 404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND on read and revoke", async (_, id) => {
    for (const res of [
      await client.get(`/stablecoin-provider-accounts/${id}`),
      await client.post(`/stablecoin-provider-accounts/${id}/revoke`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND" });
    }
  });

  test("another platform's link -> 404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND, and its revoke changes nothing", async () => {
    const link = await linkProvider(client);
    const foreign = client.as(other);
    expect((await foreign.get(`/stablecoin-provider-accounts/${link.id}`)).status).toBe(404);
    const revoke = await foreign.post(`/stablecoin-provider-accounts/${link.id}/revoke`);
    expect(revoke.status).toBe(404);
    expect(revoke.body).toMatchObject({ code: "STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND" });
    expect((await client.get(`/stablecoin-provider-accounts/${link.id}`)).body).toEqual(link);
  });
});
