import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { StablecoinOperation } from "../../src/stablecoins/schemas.js";
import { newUsdAccount, startServer, type TestServer } from "../harness.js";
import { balanceOf, enableAndProvision, linkProvider, operable, register, settle } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const kinds = ["mints", "burns"] as const;
const body = (kind: (typeof kinds)[number], accountId: string, extra: Record<string, unknown> = {}) =>
  kind === "mints"
    ? { amount: 1_000, sourceAccountId: accountId, ...extra }
    : { amount: 1_000, destinationAccountId: accountId, ...extra };

describe("issuer operation gates", () => {
  test.each(kinds)("%s on an unknown stablecoin -> 404 STABLECOIN_NOT_FOUND", async (kind) => {
    const { client, accountId } = await operable(server);
    const res = await client.post(
      `/stablecoins/Stablecoin:0190d2a1-7c4e-7b3a-9f00-1234567890ab/${kind}`,
      body(kind, accountId),
    );
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "STABLECOIN_NOT_FOUND" });
  });

  test.each(kinds)("%s on another platform's stablecoin -> 404 STABLECOIN_NOT_FOUND", async (kind) => {
    const { coin } = await operable(server);
    const { client, accountId } = await operable(server);
    const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "STABLECOIN_NOT_FOUND" });
  });

  test.each([
    ["mints", "MINT", ["BURN"]],
    ["burns", "BURN", ["MINT"]],
  ] as const)(
    "%s on a stablecoin without %s in supportedOperations -> 400 STABLECOIN_OPERATION_NOT_SUPPORTED",
    async (kind, _, supportedOperations) => {
      const { client, accountId } = await operable(server);
      const coin = await register(client, { supportedOperations });
      await enableAndProvision(client, coin.id);
      const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "STABLECOIN_OPERATION_NOT_SUPPORTED" });
    },
  );

  test.each(kinds)(
    "%s on a stablecoin that is not ENABLED -> 400 STABLECOIN_GRID_OPERATIONS_NOT_ENABLED",
    async (kind) => {
      const { client, accountId } = await operable(server);
      const coin = await register(client);
      await client.post(`/sandbox/stablecoins/${coin.id}/provision`);
      for (const step of [null, "ENABLING", "ENABLED", "DISABLED"]) {
        if (step === null) await client.post(`/stablecoins/${coin.id}/request-enablement`);
        else await client.post(`/sandbox/stablecoins/${coin.id}/enablement`, { status: step });
        if (step === "ENABLED") continue;
        const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId));
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: "STABLECOIN_GRID_OPERATIONS_NOT_ENABLED" });
      }
    },
  );

  test.each(kinds)(
    "%s on an ENABLED stablecoin not provisioned -> 400 STABLECOIN_NOT_PROVISIONED",
    async (kind) => {
      const { client, accountId } = await operable(server);
      const coin = await register(client);
      await client.post(`/stablecoins/${coin.id}/request-enablement`);
      await client.post(`/sandbox/stablecoins/${coin.id}/enablement`, { status: "ENABLING" });
      await client.post(`/sandbox/stablecoins/${coin.id}/enablement`, { status: "ENABLED" });
      const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "STABLECOIN_NOT_PROVISIONED" });
    },
  );

  test.each(kinds)(
    "%s of an amount finer than the token's decimals -> 400 STABLECOIN_AMOUNT_NOT_REPRESENTABLE",
    async (kind) => {
      const { client, accountId } = await operable(server);
      const coin = await register(client, { decimals: 1 });
      await enableAndProvision(client, coin.id);
      const res = await client.post(
        `/stablecoins/${coin.id}/${kind}`,
        body(kind, accountId, { amount: 1_005 }),
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "STABLECOIN_AMOUNT_NOT_REPRESENTABLE" });
    },
  );

  test("an amount that is a whole number of the token's smallest units is accepted (0-decimal token, whole dollars)", async () => {
    const { client, accountId } = await operable(server);
    const coin = await register(client, { decimals: 0 });
    await enableAndProvision(client, coin.id);
    expect(
      (await client.post(`/stablecoins/${coin.id}/mints`, body("mints", accountId, { amount: 1_050 })))
        .status,
    ).toBe(400);
    expect(
      (await client.post(`/stablecoins/${coin.id}/mints`, body("mints", accountId, { amount: 1_100 })))
        .status,
    ).toBe(201);
  });

  test.each([
    ["a fraction", 10.5],
    ["a string", "1000"],
    ["zero", 0],
    ["above the bound", 9_000_000_000_000_001],
  ])("an amount that is %s -> 400 INVALID_INPUT on amount", async (_, amount) => {
    const { client, coin, accountId } = await operable(server);
    const res = await client.post(`/stablecoins/${coin.id}/mints`, { amount, sourceAccountId: accountId });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "amount" }] } });
  });
});

describe("provider account selection", () => {
  test.each(kinds)(
    "%s with several ACTIVE links and none passed -> 400 STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED",
    async (kind) => {
      const { client, coin, accountId } = await operable(server);
      await linkProvider(client);
      const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED" });
    },
  );

  test("with several ACTIVE links, passing one selects it", async () => {
    const { client, coin, accountId } = await operable(server);
    const second = await linkProvider(client);
    const res = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/mints`,
      body("mints", accountId, { stablecoinProviderAccountId: second.id }),
    );
    expect(res.status).toBe(201);
    expect(res.body.stablecoinProviderAccountId).toBe(second.id);
  });

  test("with one ACTIVE link (the other revoked) and none passed, the active one is used", async () => {
    const { client, coin, accountId, provider } = await operable(server);
    const revoked = await linkProvider(client);
    await client.post(`/stablecoin-provider-accounts/${revoked.id}/revoke`);
    const res = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/mints`,
      body("mints", accountId),
    );
    expect(res.status).toBe(201);
    expect(res.body.stablecoinProviderAccountId).toBe(provider.id);
  });

  test.each(kinds)(
    "%s with no ACTIVE link and none passed -> 400 INVALID_INPUT on stablecoinProviderAccountId",
    async (kind) => {
      const { client, coin, accountId, provider } = await operable(server);
      await client.post(`/stablecoin-provider-accounts/${provider.id}/revoke`);
      const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: "INVALID_INPUT",
        details: { errors: [{ field: "stablecoinProviderAccountId" }] },
      });
    },
  );

  test.each(kinds)("%s through a revoked link -> 400 STABLECOIN_PROVIDER_ACCOUNT_REVOKED", async (kind) => {
    const { client, coin, accountId, provider } = await operable(server);
    await client.post(`/stablecoin-provider-accounts/${provider.id}/revoke`);
    const res = await client.post(
      `/stablecoins/${coin.id}/${kind}`,
      body(kind, accountId, { stablecoinProviderAccountId: provider.id }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "STABLECOIN_PROVIDER_ACCOUNT_REVOKED" });
  });

  test.each(kinds)(
    "%s through a link that does not issue on the token's network -> 400 STABLECOIN_PROVIDER_ACCOUNT_INVALID",
    async (kind) => {
      const { client, coin, accountId } = await operable(server);
      const tron = await linkProvider(client, ["TRON"]);
      const res = await client.post(
        `/stablecoins/${coin.id}/${kind}`,
        body(kind, accountId, { stablecoinProviderAccountId: tron.id }),
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "STABLECOIN_PROVIDER_ACCOUNT_INVALID" });
    },
  );

  test.each([
    ["unknown", "StablecoinProviderAccount:0190d2a1-7c4e-7b3a-9f00-1234567890ab"],
    ["malformed", "nope"],
  ])("%s stablecoinProviderAccountId -> 404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND", async (_, id) => {
    const { client, coin, accountId } = await operable(server);
    const res = await client.post(
      `/stablecoins/${coin.id}/mints`,
      body("mints", accountId, { stablecoinProviderAccountId: id }),
    );
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND" });
  });

  test("another platform's link -> 404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND", async () => {
    const { provider } = await operable(server);
    const { client, coin, accountId } = await operable(server);
    const res = await client.post(
      `/stablecoins/${coin.id}/mints`,
      body("mints", accountId, { stablecoinProviderAccountId: provider.id }),
    );
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND" });
  });
});

describe("fiat accounts and funds", () => {
  test("a mint the source account cannot cover -> 400 INSUFFICIENT_FUNDS, nothing written", async () => {
    const { client, coin, accountId } = await operable(server, 500);
    const res = await client.post(`/stablecoins/${coin.id}/mints`, body("mints", accountId));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INSUFFICIENT_FUNDS" });
    expect(await balanceOf(client, accountId)).toBe(500);
    const ops = await client.get<{ totalCount: number }>(`/stablecoins/${coin.id}/operations`);
    expect(ops.body.totalCount).toBe(0);
  });

  test("a burn above the provider account's holding of the token -> 400 INSUFFICIENT_FUNDS", async () => {
    const { client, coin, accountId } = await operable(server);
    expect((await client.post(`/stablecoins/${coin.id}/mints`, body("mints", accountId))).status).toBe(201);
    await settle(server, client);
    const res = await client.post(
      `/stablecoins/${coin.id}/burns`,
      body("burns", accountId, { amount: 1_001 }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INSUFFICIENT_FUNDS" });
  });

  test("a burn from a provider account that never held the token -> 400 STABLECOIN_BURN_SOURCE_NOT_SUPPORTED", async () => {
    const { client, coin, accountId } = await operable(server);
    const res = await client.post(`/stablecoins/${coin.id}/burns`, body("burns", accountId));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "STABLECOIN_BURN_SOURCE_NOT_SUPPORTED" });
  });

  test.each(kinds)(
    "%s naming an unknown or another platform's account -> 404 ACCOUNT_NOT_FOUND",
    async (kind) => {
      const { accountId: foreign } = await operable(server);
      const { client, coin } = await operable(server);
      for (const accountId of [foreign, "InternalAccount:0190d2a1-7c4e-7b3a-9f00-1234567890ab"]) {
        const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId));
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
      }
    },
  );

  test.each([
    ["mints", "sourceAccountId"],
    ["burns", "destinationAccountId"],
  ] as const)(
    "%s naming an account in another currency than the backing one -> 400 INVALID_INPUT on %s",
    async (kind, field) => {
      const { client, accountId } = await operable(server);
      const coin = await register(client, { backingCurrency: "EUR" });
      await enableAndProvision(client, coin.id);
      const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field }] } });
    },
  );

  test("production platforms cannot be provisioned, so their mints are 400 STABLECOIN_GRID_OPERATIONS_NOT_ENABLED", async () => {
    const client = server.client.as(await server.newPlatform("PRODUCTION"));
    await linkProvider(client);
    const coin = await register(client);
    const accountId = await newUsdAccount(client);
    const res = await client.post(`/stablecoins/${coin.id}/mints`, body("mints", accountId));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "STABLECOIN_GRID_OPERATIONS_NOT_ENABLED" });
  });
});
