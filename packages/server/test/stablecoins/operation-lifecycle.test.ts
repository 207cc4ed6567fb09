import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { StablecoinOperation } from "../../src/stablecoins/schemas.js";
import { startServer, type TestServer } from "../harness.js";
import { balanceOf, burnBody, fiatLeg, mintBody, operable, settle, units } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type PageOf<T> = { data: T[]; hasMore: boolean; nextCursor?: string; totalCount: number };
const idPattern = /^StablecoinOperation:[0-9a-f-]{36}$/;

describe("mints", () => {
  test("a mint answers the hosted StablecoinOperation shape, debits the source account at once and stays PROCESSING", async () => {
    const { client, coin, accountId, provider } = await operable(server, 10_000);
    const res = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/mints`,
      mintBody(accountId, provider.id, units(2_500)),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(idPattern),
      stablecoinId: coin.id,
      operationType: "MINT",
      status: "PROCESSING",
      amount: "25000000",
      provider: "BRALE",
      providerEnvironment: "SANDBOX",
      stablecoinProviderAccountId: provider.id,
      source: { type: "GRID_INTERNAL_ACCOUNT", accountId },
      destination: { accountId: provider.id },
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
    });
    expect(await balanceOf(client, accountId)).toBe(7_500);
    const txn = await fiatLeg(client, res.body.id);
    expect(txn).toMatchObject({ type: "OUTGOING", status: "PROCESSING", sentAmount: { amount: 2_500 } });
  });

  test("a settled mint is COMPLETED, updatedAt the settlement time; its transaction COMPLETED; the debit stays", async () => {
    const { client, coin, accountId, provider } = await operable(server, 10_000);
    const mint = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/mints`,
      mintBody(accountId, provider.id, units(2_500)),
    );
    await settle(server, client);
    const read = await client.get<StablecoinOperation>(`/stablecoin-operations/${mint.body.id}`);
    expect(read.body).toMatchObject({ status: "COMPLETED" });
    expect(read.body.failureReason).toBeUndefined();
    expect(Date.parse(read.body.updatedAt)).toBeGreaterThan(Date.parse(mint.body.createdAt));
    expect(await balanceOf(client, accountId)).toBe(7_500);
    const txn = await fiatLeg(client, mint.body.id);
    expect(txn).toMatchObject({ status: "COMPLETED", settledAt: read.body.updatedAt });
  });

  test("a mint the sandbox provider rejects (amount ending 002) is FAILED PROVIDER_REJECTED and the debit is given back", async () => {
    const { client, coin, accountId, provider } = await operable(server, 10_000);
    const mint = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/mints`,
      mintBody(accountId, provider.id, units(1_002)),
    );
    expect(await balanceOf(client, accountId)).toBe(8_998);
    await settle(server, client);
    const read = await client.get<StablecoinOperation>(`/stablecoin-operations/${mint.body.id}`);
    expect(read.body).toMatchObject({ status: "FAILED", failureReason: "PROVIDER_REJECTED" });
    expect(await balanceOf(client, accountId)).toBe(10_000);
    const txn = await fiatLeg(client, mint.body.id);
    expect(txn).toMatchObject({ status: "FAILED" });
    // The ledger holds both changes on the one transaction: the debit and its reversal.
    const changes = await server.db.query<{ amount: number }>(
      "SELECT amount FROM balance_changes WHERE transaction_id = $1 ORDER BY recorded_at, id",
      [txn.id],
    );
    expect(changes.map((c) => Number(c.amount)).sort()).toEqual([-1_002, 1_002].sort());
  });

  test("a mint with an Idempotency-Key is replayed, not repeated", async () => {
    const { client, coin, accountId, provider } = await operable(server, 10_000);
    const headers = { "idempotency-key": "mint-once" };
    const input = mintBody(accountId, provider.id, units(3_000));
    const first = await client.post(`/stablecoins/${coin.id}/mints`, input, { headers });
    const again = await client.post(`/stablecoins/${coin.id}/mints`, input, { headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await balanceOf(client, accountId)).toBe(7_000);
    const other = await client.post(
      `/stablecoins/${coin.id}/mints`,
      { ...input, amount: units(10) },
      { headers },
    );
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: "CONFLICT" });
  });
});

describe("concurrency and events", () => {
  test("concurrent mints never overdraw the source account: the ledger refuses what it cannot cover", async () => {
    const { client, coin, accountId, provider } = await operable(server, 10_000);
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        client.post(`/stablecoins/${coin.id}/mints`, mintBody(accountId, provider.id, units(4_000))),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 400, 400]);
    for (const r of results.filter((r) => r.status === 400)) {
      expect(r.body).toMatchObject({ code: "INSUFFICIENT_FUNDS" });
    }
    expect(await balanceOf(client, accountId)).toBe(2_000);
  });

  test("concurrent burns never take more than the provider account holds", async () => {
    const { client, coin, accountId, provider } = await operable(server, 10_000);
    await client.post(`/stablecoins/${coin.id}/mints`, mintBody(accountId, provider.id, units(5_000)));
    await settle(server, client);
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        client.post(`/stablecoins/${coin.id}/burns`, burnBody(accountId, units(2_000))),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 400, 400]);
  });

  test("the fiat leg's transaction raises OUTGOING_PAYMENT events; operations raise no events of their own", async () => {
    const { client, coin, accountId, platform, provider } = await operable(server, 10_000);
    const mint = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/mints`,
      mintBody(accountId, provider.id, units(1_000)),
    );
    await settle(server, client);
    const { id: transactionId } = await fiatLeg(client, mint.body.id);
    const events = await server.db.query<{ type: string; body: unknown }>(
      "SELECT type, body FROM webhook_events WHERE platform_id = $1 ORDER BY created_at, id",
      [platform.platformId],
    );
    const ofMint = events.filter((e) => JSON.stringify(e.body).includes(transactionId));
    expect(ofMint.map((e) => e.type)).toEqual(["OUTGOING_PAYMENT.PROCESSING", "OUTGOING_PAYMENT.COMPLETED"]);
    expect(events.some((e) => e.type.startsWith("STABLECOIN"))).toBe(false);
  });
});

describe("burns", () => {
  async function minted(amount: number) {
    const setup = await operable(server, 10_000);
    const mint = await setup.client.post(
      `/stablecoins/${setup.coin.id}/mints`,
      mintBody(setup.accountId, setup.provider.id, units(amount)),
    );
    expect(mint.status).toBe(201);
    await settle(server, setup.client);
    return setup;
  }

  test("a burn takes the tokens at once and credits the destination account when it completes", async () => {
    const { client, coin, accountId } = await minted(5_000);
    const burn = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/burns`,
      burnBody(accountId, units(2_000)),
    );
    expect(burn.status).toBe(201);
    expect(burn.body).toMatchObject({
      operationType: "BURN",
      status: "PROCESSING",
      amount: "20000000",
      source: { type: "PROVIDER_INTERNAL_BALANCE" },
      destination: { accountId },
    });
    expect(burn.body.source).toEqual({ type: "PROVIDER_INTERNAL_BALANCE" });
    expect(await balanceOf(client, accountId)).toBe(5_000);
    // The holding is reserved: only 3,000 remain to burn while this one is PROCESSING.
    const tooMuch = await client.post(`/stablecoins/${coin.id}/burns`, burnBody(accountId, units(3_001)));
    expect(tooMuch.body).toMatchObject({ code: "INSUFFICIENT_FUNDS" });
    expect(await fiatLeg(client, burn.body.id)).toMatchObject({ type: "INCOMING", status: "PENDING" });
    await settle(server, client);
    const read = await client.get(`/stablecoin-operations/${burn.body.id}`);
    expect(read.body).toMatchObject({ status: "COMPLETED" });
    expect(await balanceOf(client, accountId)).toBe(7_000);
    expect(await fiatLeg(client, burn.body.id)).toMatchObject({ status: "COMPLETED" });
  });

  test("a burn the provider rejects (amount ending 002) is FAILED, credits nothing and returns the tokens", async () => {
    const { client, coin, accountId } = await minted(5_000);
    const burn = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/burns`,
      burnBody(accountId, units(1_002)),
    );
    await settle(server, client);
    const read = await client.get(`/stablecoin-operations/${burn.body.id}`);
    expect(read.body).toMatchObject({ status: "FAILED", failureReason: "PROVIDER_REJECTED" });
    expect(await balanceOf(client, accountId)).toBe(5_000);
    const all = await client.post(`/stablecoins/${coin.id}/burns`, burnBody(accountId, units(5_000)));
    expect(all.status).toBe(201);
  });
});

describe("GET /stablecoins/{id}/operations", () => {
  test("operations page newest first with totalCount, and filter by operationType and status", async () => {
    const { client, coin, accountId, provider } = await operable(server, 10_000);
    const ids: string[] = [];
    for (const amount of [100, 200, 300]) {
      const res = await client.post<StablecoinOperation>(
        `/stablecoins/${coin.id}/mints`,
        mintBody(accountId, provider.id, units(amount)),
      );
      ids.push(res.body.id);
    }
    await settle(server, client);
    const burn = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/burns`,
      burnBody(accountId, units(100)),
    );
    const first = await client.get<PageOf<StablecoinOperation>>(`/stablecoins/${coin.id}/operations?limit=2`);
    expect(first.body.totalCount).toBe(4);
    const rest = await client.get<PageOf<StablecoinOperation>>(
      `/stablecoins/${coin.id}/operations?limit=2&cursor=${first.body.nextCursor}`,
    );
    expect([...first.body.data, ...rest.body.data].map((o) => o.id)).toEqual([
      burn.body.id,
      ...ids.reverse(),
    ]);
    const mints = await client.get<PageOf<StablecoinOperation>>(
      `/stablecoins/${coin.id}/operations?operationType=MINT`,
    );
    expect(mints.body.totalCount).toBe(3);
    expect(mints.body.data.map((o) => o.operationType)).toEqual(["MINT", "MINT", "MINT"]);
    const processing = await client.get<PageOf<StablecoinOperation>>(
      `/stablecoins/${coin.id}/operations?status=PROCESSING`,
    );
    expect(processing.body.data.map((o) => o.id)).toEqual([burn.body.id]);
  });

  test("an unknown or another platform's stablecoin's operations -> 404 STABLECOIN_NOT_FOUND", async () => {
    const { client } = await operable(server);
    const { coin: foreign } = await operable(server);
    for (const id of ["Stablecoin:0190d2a1-7c4e-7b3a-9f00-1234567890ab", foreign.id]) {
      const res = await client.get(`/stablecoins/${id}/operations`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "STABLECOIN_NOT_FOUND" });
    }
  });
});

describe("GET /stablecoin-operations/{stablecoinOperationId}", () => {
  test("an operation is read by its id alone (raw or %3A-encoded) -> 200, the operation the mint returned", async () => {
    const { client, coin, accountId, provider } = await operable(server, 10_000);
    const mint = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/mints`,
      mintBody(accountId, provider.id, units(700)),
    );
    const read = await client.get<StablecoinOperation>(`/stablecoin-operations/${mint.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(mint.body);
    const encoded = await client.get(`/stablecoin-operations/${encodeURIComponent(mint.body.id)}`);
    expect(encoded.body).toEqual(mint.body);
  });

  test("an unknown, malformed or another platform's operation id -> 404 STABLECOIN_OPERATION_NOT_FOUND", async () => {
    const { client } = await operable(server);
    const other = await operable(server);
    const otherMint = await other.client.post<StablecoinOperation>(
      `/stablecoins/${other.coin.id}/mints`,
      mintBody(other.accountId, other.provider.id, units(100)),
    );
    for (const operationId of [
      "StablecoinOperation:0190d2a1-7c4e-7b3a-9f00-1234567890ab",
      "nope",
      "Stablecoin:0190d2a1-7c4e-7b3a-9f00-1234567890ab",
      otherMint.body.id,
    ]) {
      const res = await client.get(`/stablecoin-operations/${operationId}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "STABLECOIN_OPERATION_NOT_FOUND" });
    }
    expect((await other.client.get(`/stablecoin-operations/${otherMint.body.id}`)).status).toBe(200);
  });

  test("the former path /stablecoins/{stablecoinId}/operations/{operationId} is gone -> 404 NOT_FOUND", async () => {
    const { client, coin, accountId, provider } = await operable(server, 10_000);
    const mint = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/mints`,
      mintBody(accountId, provider.id, units(100)),
    );
    const res = await client.get(`/stablecoins/${coin.id}/operations/${mint.body.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "NOT_FOUND" });
  });
});
