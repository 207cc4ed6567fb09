import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { StablecoinOperation } from "../../src/stablecoins/schemas.js";
import { startServer, type TestServer } from "../harness.js";
import {
  burnBody,
  enableAndProvision,
  fiatLeg,
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

type PageOf<T> = { data: T[]; hasMore: boolean; nextCursor?: string; totalCount: number };

/** The hosted StablecoinOperation's fields; ours may carry no other. */
const hostedFields = new Set([
  "id",
  "stablecoinId",
  "operationType",
  "status",
  "amount",
  "provider",
  "providerEnvironment",
  "stablecoinProviderAccountId",
  "source",
  "fundingInstructions",
  "destination",
  "estimatedDelivery",
  "expiresAt",
  "providerStatus",
  "failureReason",
  "description",
  "createdAt",
  "updatedAt",
]);

describe("the StablecoinOperation body is the hosted shape", () => {
  test("create, read and list answer only hosted fields, and the same body for one operation", async () => {
    const { client, coin, accountId, provider } = await operable(server, 10_000);
    const mint = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/mints`,
      mintBody(accountId, provider.id, units(1_234)),
    );
    expect(mint.status).toBe(201);
    await settle(server, client);
    const settledBurn = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/burns`,
      burnBody(accountId, units(1_000)),
    );
    expect(settledBurn.status).toBe(201);
    const read = await client.get<StablecoinOperation>(`/stablecoin-operations/${mint.body.id}`);
    const list = await client.get<PageOf<StablecoinOperation>>(`/stablecoins/${coin.id}/operations`);
    for (const body of [mint.body, settledBurn.body, read.body, ...list.body.data]) {
      expect(Object.keys(body).filter((field) => !hostedFields.has(field))).toEqual([]);
    }
    expect(list.body.data).toEqual([settledBurn.body, read.body]);
  });

  test("amount is a decimal string of the token's smallest units, exact beyond 2^53 (18 decimals) and at 0 decimals", async () => {
    const { client, accountId, provider } = await operable(server, 100_000);
    const cases = [
      { decimals: 18, minor: 2_500, expected: "25000000000000000000" },
      { decimals: 6, minor: 2_501, expected: "25010000" },
      { decimals: 2, minor: 2_503, expected: "2503" },
      { decimals: 0, minor: 2_500, expected: "25" },
    ];
    // Requests take the same units the response answers.
    for (const { decimals, minor, expected } of cases) {
      const coin = await register(client, { decimals });
      await enableAndProvision(client, coin.id);
      const mint = await client.post<StablecoinOperation>(
        `/stablecoins/${coin.id}/mints`,
        mintBody(accountId, provider.id, expected),
      );
      expect(mint.status).toBe(201);
      expect(mint.body.amount).toBe(expected);
      expect(
        (await client.get<StablecoinOperation>(`/stablecoin-operations/${mint.body.id}`)).body.amount,
      ).toBe(expected);
      // The fiat leg keeps the backing currency's minor units.
      expect(await fiatLeg(client, mint.body.id)).toMatchObject({ sentAmount: { amount: minor } });
    }
  });

  test("a mint's source is the paying internal account and its destination the provider link; a burn's source is the provider balance and its destination the credited account", async () => {
    const { client, coin, accountId, provider } = await operable(server, 10_000);
    const mint = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/mints`,
      mintBody(accountId, provider.id, units(3_000)),
    );
    expect(mint.body.source).toEqual({ type: "GRID_INTERNAL_ACCOUNT", accountId });
    expect(mint.body.destination).toEqual({ accountId: provider.id });
    await settle(server, client);
    const burn = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/burns`,
      burnBody(accountId, units(1_000)),
    );
    expect(burn.body).toMatchObject({
      operationType: "BURN",
      provider: "BRALE",
      providerEnvironment: "SANDBOX",
      stablecoinProviderAccountId: provider.id,
      source: { type: "PROVIDER_INTERNAL_BALANCE" },
      destination: { accountId },
    });
    expect(burn.body.source).toEqual({ type: "PROVIDER_INTERNAL_BALANCE" });
  });

  test("description is echoed on the operation when given and absent otherwise", async () => {
    const { client, coin, accountId, provider } = await operable(server, 10_000);
    const described = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/mints`,
      mintBody(accountId, provider.id, units(100), { description: "Initial program funding mint" }),
    );
    expect(described.body.description).toBe("Initial program funding mint");
    const read = await client.get<StablecoinOperation>(`/stablecoin-operations/${described.body.id}`);
    expect(read.body.description).toBe("Initial program funding mint");
    const plain = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/mints`,
      mintBody(accountId, provider.id, units(100)),
    );
    expect(plain.body).not.toHaveProperty("description");
    const tooLong = await client.post(
      `/stablecoins/${coin.id}/mints`,
      mintBody(accountId, provider.id, units(100), { description: "x".repeat(1025) }),
    );
    expect(tooLong.status).toBe(400);
  });

  test("the operations list filters by the hosted operationType; the former type parameter -> 400 INVALID_INPUT", async () => {
    const { client, coin, accountId, provider } = await operable(server, 10_000);
    await client.post(`/stablecoins/${coin.id}/mints`, mintBody(accountId, provider.id, units(2_000)));
    await settle(server, client);
    const burn = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/burns`,
      burnBody(accountId, units(500)),
    );
    const burns = await client.get<PageOf<StablecoinOperation>>(
      `/stablecoins/${coin.id}/operations?operationType=BURN`,
    );
    expect(burns.body.data.map((o) => o.id)).toEqual([burn.body.id]);
    const former = await client.get(`/stablecoins/${coin.id}/operations?type=BURN`);
    expect(former.status).toBe(400);
    expect(former.body).toMatchObject({
      code: "INVALID_INPUT",
      details: { errors: [expect.objectContaining({ field: expect.stringContaining("type") })] },
    });
    const bad = await client.get(`/stablecoins/${coin.id}/operations?operationType=SWAP`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "INVALID_INPUT" });
  });
});
