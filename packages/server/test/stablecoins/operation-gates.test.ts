import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { StablecoinOperation } from "../../src/stablecoins/schemas.js";
import { newUsdAccount, startServer, type TestServer } from "../harness.js";
import {
  balanceOf,
  burnBody,
  enableAndProvision,
  linkProvider,
  mintBody,
  operable,
  register,
  settle,
  units,
} from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const kinds = ["mints", "burns"] as const;
/** A mint names its link as `destination.accountId`; a burn as `stablecoinProviderAccountId` (optional). */
const body = (
  kind: (typeof kinds)[number],
  accountId: string,
  link: string | undefined,
  extra: Record<string, unknown> = {},
) =>
  kind === "mints"
    ? mintBody(accountId, link ?? "", units(1_000), extra)
    : burnBody(
        accountId,
        units(1_000),
        link === undefined ? extra : { stablecoinProviderAccountId: link, ...extra },
      );

describe("issuer operation gates", () => {
  test.each(kinds)("%s on an unknown stablecoin -> 404 STABLECOIN_NOT_FOUND", async (kind) => {
    const { client, accountId, provider } = await operable(server);
    const res = await client.post(
      `/stablecoins/Stablecoin:0190d2a1-7c4e-7b3a-9f00-1234567890ab/${kind}`,
      body(kind, accountId, provider.id),
    );
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "STABLECOIN_NOT_FOUND" });
  });

  test.each(kinds)("%s on another platform's stablecoin -> 404 STABLECOIN_NOT_FOUND", async (kind) => {
    const { coin } = await operable(server);
    const { client, accountId, provider } = await operable(server);
    const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId, provider.id));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "STABLECOIN_NOT_FOUND" });
  });

  test.each([
    ["mints", "MINT", ["BURN"]],
    ["burns", "BURN", ["MINT"]],
  ] as const)(
    "%s on a stablecoin without %s in supportedOperations -> 400 STABLECOIN_OPERATION_NOT_SUPPORTED",
    async (kind, _, supportedOperations) => {
      const { client, accountId, provider } = await operable(server);
      const coin = await register(client, { supportedOperations });
      await enableAndProvision(client, coin.id);
      const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId, provider.id));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "STABLECOIN_OPERATION_NOT_SUPPORTED" });
    },
  );

  test.each(kinds)(
    "%s on a stablecoin that is not ENABLED -> 400 STABLECOIN_GRID_OPERATIONS_NOT_ENABLED",
    async (kind) => {
      const { client, accountId, provider } = await operable(server);
      const coin = await register(client);
      await client.post(`/sandbox/stablecoins/${coin.id}/provision`);
      for (const step of [null, "ENABLING", "ENABLED", "DISABLED"]) {
        if (step === null) await client.post(`/stablecoins/${coin.id}/request-enablement`);
        else await client.post(`/sandbox/stablecoins/${coin.id}/enablement`, { status: step });
        if (step === "ENABLED") continue;
        const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId, provider.id));
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: "STABLECOIN_GRID_OPERATIONS_NOT_ENABLED" });
      }
    },
  );

  test.each(kinds)(
    "%s on an ENABLED stablecoin not provisioned -> 400 STABLECOIN_NOT_PROVISIONED",
    async (kind) => {
      const { client, accountId, provider } = await operable(server);
      const coin = await register(client);
      await client.post(`/stablecoins/${coin.id}/request-enablement`);
      await client.post(`/sandbox/stablecoins/${coin.id}/enablement`, { status: "ENABLING" });
      await client.post(`/sandbox/stablecoins/${coin.id}/enablement`, { status: "ENABLED" });
      const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId, provider.id));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "STABLECOIN_NOT_PROVISIONED" });
    },
  );

  test.each(kinds)(
    "%s of token units finer than the backing currency's minor units -> 400 STABLECOIN_AMOUNT_NOT_REPRESENTABLE",
    async (kind) => {
      const { client, coin, accountId, provider } = await operable(server);
      // 1,000,001 units of a 6-decimal USD token is 100.0001 cents.
      const res = await client.post(
        `/stablecoins/${coin.id}/${kind}`,
        body(kind, accountId, provider.id, { amount: "1000001" }),
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "STABLECOIN_AMOUNT_NOT_REPRESENTABLE" });
    },
  );

  test("amount is the token's smallest units: 10,000 units of a 6-decimal token debit exactly 1 cent", async () => {
    const { client, coin, accountId, provider } = await operable(server, 5);
    const res = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/mints`,
      mintBody(accountId, provider.id, "10000"),
    );
    expect(res.status).toBe(201);
    expect(res.body.amount).toBe("10000");
    expect(await balanceOf(client, accountId)).toBe(4);
  });

  test("a 0-decimal token's whole units are whole dollars (1 unit = 100 cents)", async () => {
    const { client, accountId, provider } = await operable(server, 1_000);
    const coin = await register(client, { decimals: 0 });
    await enableAndProvision(client, coin.id);
    const res = await client.post(`/stablecoins/${coin.id}/mints`, mintBody(accountId, provider.id, "3"));
    expect(res.status).toBe(201);
    expect(await balanceOf(client, accountId)).toBe(700);
  });

  test("an 18-decimal token's amount beyond 2^53 is converted exactly (BigInt)", async () => {
    const { client, accountId, provider } = await operable(server, 1_000);
    const coin = await register(client, { decimals: 18 });
    await enableAndProvision(client, coin.id);
    const ok = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/mints`,
      mintBody(accountId, provider.id, "1230000000000000000"),
    );
    expect(ok.status).toBe(201);
    expect(ok.body.amount).toBe("1230000000000000000");
    expect(await balanceOf(client, accountId)).toBe(877);
    const finer = await client.post(
      `/stablecoins/${coin.id}/mints`,
      mintBody(accountId, provider.id, "1230000000000000001"),
    );
    expect(finer.status).toBe(400);
    expect(finer.body).toMatchObject({ code: "STABLECOIN_AMOUNT_NOT_REPRESENTABLE" });
  });

  test.each([
    ["a number, not a string", 1000],
    ["a decimal fraction", "10.5"],
    ["negative", "-100"],
    ["zero", "0"],
    ["above the 9e15 minor-unit bound", "90000000000000010000"],
  ])("an amount that is %s -> 400 INVALID_INPUT on amount", async (_, amount) => {
    const { client, coin, accountId, provider } = await operable(server);
    const res = await client.post(`/stablecoins/${coin.id}/mints`, {
      ...mintBody(accountId, provider.id, "1"),
      amount,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "amount" }] } });
  });
});

describe("provider account selection", () => {
  test.each(["burns"] as const)(
    "%s with several ACTIVE links and none passed -> 400 STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED",
    async (kind) => {
      const { client, coin, accountId } = await operable(server);
      await linkProvider(client);
      const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId, undefined));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED" });
    },
  );

  test("a mint goes through the link its destination.accountId names, whatever other links exist", async () => {
    const { client, coin, accountId } = await operable(server);
    const second = await linkProvider(client);
    const res = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/mints`,
      body("mints", accountId, second.id),
    );
    expect(res.status).toBe(201);
    expect(res.body.stablecoinProviderAccountId).toBe(second.id);
  });

  test("a burn with one ACTIVE link (the other revoked) and none passed goes through the active one", async () => {
    const { client, coin, accountId, provider } = await operable(server);
    expect(
      (await client.post(`/stablecoins/${coin.id}/mints`, body("mints", accountId, provider.id))).status,
    ).toBe(201);
    await settle(server, client);
    const revoked = await linkProvider(client);
    await client.post(`/stablecoin-provider-accounts/${revoked.id}/revoke`);
    const res = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/burns`,
      body("burns", accountId, undefined),
    );
    expect(res.status).toBe(201);
    expect(res.body.stablecoinProviderAccountId).toBe(provider.id);
  });

  test.each(["burns"] as const)(
    "%s with no ACTIVE link and none passed -> 400 INVALID_INPUT on stablecoinProviderAccountId",
    async (kind) => {
      const { client, coin, accountId, provider } = await operable(server);
      await client.post(`/stablecoin-provider-accounts/${provider.id}/revoke`);
      const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId, undefined));
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
    const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId, provider.id));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "STABLECOIN_PROVIDER_ACCOUNT_REVOKED" });
  });

  test.each(kinds)(
    "%s through a link that does not issue on the token's network -> 400 STABLECOIN_PROVIDER_ACCOUNT_INVALID",
    async (kind) => {
      const { client, coin, accountId } = await operable(server);
      const tron = await linkProvider(client, ["TRON"]);
      const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId, tron.id));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "STABLECOIN_PROVIDER_ACCOUNT_INVALID" });
    },
  );

  test.each([
    ["unknown", "StablecoinProviderAccount:0190d2a1-7c4e-7b3a-9f00-1234567890ab"],
    ["malformed", "nope"],
  ])(
    "a mint whose destination.accountId is an %s link -> 404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND",
    async (_, id) => {
      const { client, coin, accountId } = await operable(server);
      const res = await client.post(`/stablecoins/${coin.id}/mints`, body("mints", accountId, id));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND" });
    },
  );

  test("another platform's link -> 404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND", async () => {
    const { provider } = await operable(server);
    const { client, coin, accountId } = await operable(server);
    const burn = await client.post(`/stablecoins/${coin.id}/burns`, body("burns", accountId, provider.id));
    expect(burn.status).toBe(404);
    expect(burn.body).toMatchObject({ code: "STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND" });
    const res = await client.post(`/stablecoins/${coin.id}/mints`, body("mints", accountId, provider.id));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND" });
  });
});

describe("fiat accounts and funds", () => {
  test("a mint the source account cannot cover -> 400 INSUFFICIENT_FUNDS, nothing written", async () => {
    const { client, coin, accountId, provider } = await operable(server, 500);
    const res = await client.post(`/stablecoins/${coin.id}/mints`, body("mints", accountId, provider.id));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INSUFFICIENT_FUNDS" });
    expect(await balanceOf(client, accountId)).toBe(500);
    const ops = await client.get<{ totalCount: number }>(`/stablecoins/${coin.id}/operations`);
    expect(ops.body.totalCount).toBe(0);
  });

  test("a burn above the provider account's holding of the token -> 400 INSUFFICIENT_FUNDS", async () => {
    const { client, coin, accountId, provider } = await operable(server);
    expect(
      (await client.post(`/stablecoins/${coin.id}/mints`, body("mints", accountId, provider.id))).status,
    ).toBe(201);
    await settle(server, client);
    const res = await client.post(
      `/stablecoins/${coin.id}/burns`,
      body("burns", accountId, provider.id, { amount: units(1_001) }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INSUFFICIENT_FUNDS" });
  });

  test("a burn from a provider account that never held the token -> 400 STABLECOIN_BURN_SOURCE_NOT_SUPPORTED", async () => {
    const { client, coin, accountId, provider } = await operable(server);
    const res = await client.post(`/stablecoins/${coin.id}/burns`, body("burns", accountId, provider.id));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "STABLECOIN_BURN_SOURCE_NOT_SUPPORTED" });
  });

  test.each([
    ["EXTERNAL_ACCOUNT", { type: "EXTERNAL_ACCOUNT" }],
    ["GRID_INTERNAL_ACCOUNT", { type: "GRID_INTERNAL_ACCOUNT", accountId: "InternalAccount:x" }],
  ])("a burn whose source is %s -> 400 STABLECOIN_BURN_SOURCE_NOT_SUPPORTED", async (_, source) => {
    const { client, coin, accountId, provider } = await operable(server);
    const res = await client.post(
      `/stablecoins/${coin.id}/burns`,
      body("burns", accountId, provider.id, { source }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "STABLECOIN_BURN_SOURCE_NOT_SUPPORTED" });
  });

  test.each([
    ["WIRE", { type: "WIRE" }],
    ["ACH_DEBIT", { type: "ACH_DEBIT", externalAccountId: "ExternalAccount:x" }],
    ["SAME_DAY_ACH_DEBIT", { type: "SAME_DAY_ACH_DEBIT", externalAccountId: "ExternalAccount:x" }],
  ])("a mint funded by %s -> 400 INVALID_INPUT on fundingSource.type", async (_, fundingSource) => {
    const { client, coin, accountId, provider } = await operable(server);
    const res = await client.post(
      `/stablecoins/${coin.id}/mints`,
      body("mints", accountId, provider.id, { fundingSource }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "INVALID_INPUT",
      details: { errors: [{ field: "fundingSource.type" }] },
    });
  });

  test("a mint funded by PROVIDER_INTERNAL_BALANCE -> 400 STABLECOIN_PROVIDER_SOURCE_NOT_LINKED", async () => {
    const { client, coin, accountId, provider } = await operable(server);
    const fundingSource = {
      type: "PROVIDER_INTERNAL_BALANCE",
      sourceTokenIdentifier: "USDC",
      cryptoNetwork: "SOLANA",
    };
    const res = await client.post(
      `/stablecoins/${coin.id}/mints`,
      body("mints", accountId, provider.id, { fundingSource }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "STABLECOIN_PROVIDER_SOURCE_NOT_LINKED" });
  });

  test.each([
    ["an unknown fundingSource.type", { fundingSource: { type: "CARD" } }, "fundingSource.type"],
    ["no destination", { destination: undefined }, "destination"],
    ["the old sourceAccountId field", { sourceAccountId: "InternalAccount:x" }, "sourceAccountId"],
  ])("a mint with %s -> 400 INVALID_INPUT naming the field", async (_, extra, field) => {
    const { client, coin, accountId, provider } = await operable(server);
    const res = await client.post(
      `/stablecoins/${coin.id}/mints`,
      body("mints", accountId, provider.id, extra),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT" });
    const fields = (res.body as { details: { errors: { field: string }[] } }).details.errors.map(
      (e) => e.field,
    );
    expect(fields).toContain(field);
  });

  test.each(kinds)(
    "%s naming an unknown or another platform's account -> 404 ACCOUNT_NOT_FOUND",
    async (kind) => {
      const { accountId: foreign } = await operable(server);
      const { client, coin, provider } = await operable(server);
      for (const accountId of [foreign, "InternalAccount:0190d2a1-7c4e-7b3a-9f00-1234567890ab"]) {
        const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId, provider.id));
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
      }
    },
  );

  test.each([
    ["mints", "fundingSource.accountId"],
    ["burns", "destination.accountId"],
  ] as const)(
    "%s naming an account in another currency than the backing one -> 400 INVALID_INPUT on %s",
    async (kind, field) => {
      const { client, accountId, provider } = await operable(server);
      const coin = await register(client, { backingCurrency: "EUR" });
      await enableAndProvision(client, coin.id);
      const res = await client.post(`/stablecoins/${coin.id}/${kind}`, body(kind, accountId, provider.id));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field }] } });
    },
  );

  test("production platforms cannot be provisioned, so their mints are 400 STABLECOIN_GRID_OPERATIONS_NOT_ENABLED", async () => {
    const client = server.client.as(await server.newPlatform("PRODUCTION"));
    const provider = await linkProvider(client);
    const coin = await register(client);
    const accountId = await newUsdAccount(client);
    const res = await client.post(`/stablecoins/${coin.id}/mints`, body("mints", accountId, provider.id));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "STABLECOIN_GRID_OPERATIONS_NOT_ENABLED" });
  });
});
