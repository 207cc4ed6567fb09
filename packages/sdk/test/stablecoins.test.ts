import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../../server/test/harness.js";
import {
  BadRequestError,
  ConflictError,
  type MintBody,
  NotFoundError,
  PaysvcClient,
  type RegisterStablecoinBody,
} from "../src/index.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const newClient = async () => new PaysvcClient({ baseUrl: server.baseUrl, ...(await server.newPlatform()) });

const coinBody = (overrides: Partial<RegisterStablecoinBody> = {}): RegisterStablecoinBody => ({
  symbol: `SD${randomBytes(3).toString("hex").toUpperCase()}`,
  name: "SDK Dollar",
  network: "ETHEREUM",
  tokenIdentifier: `0x${randomBytes(20).toString("hex")}`,
  decimals: 6,
  ...overrides,
});

async function fundedUsdAccount(paysvc: PaysvcClient, amount: number): Promise<string> {
  const customer = await paysvc.customers.create({ customerType: "INDIVIDUAL" });
  const accounts = await paysvc.internalAccounts.listForCustomers({
    customerId: customer.id,
    currency: "USD",
    type: "INTERNAL_FIAT",
  });
  const accountId = accounts.data[0]?.id as string;
  await paysvc.sandbox.fund(accountId, amount);
  return accountId;
}

/** A platform with a provider link, an ENABLED provisioned coin and a funded USD account. */
async function operable(funds = 100_000) {
  const paysvc = await newClient();
  const provider = await paysvc.stablecoins.createProviderAccount({
    provider: "BRALE",
    accountReference: `acct_${randomBytes(4).toString("hex")}`,
    networks: ["ETHEREUM"],
  });
  const coin = await paysvc.stablecoins.register(coinBody());
  await paysvc.stablecoins.requestEnablement(coin.id);
  await paysvc.sandbox.setStablecoinEnablement(coin.id, "ENABLING");
  await paysvc.sandbox.setStablecoinEnablement(coin.id, "ENABLED");
  await paysvc.sandbox.provisionStablecoin(coin.id);
  return { paysvc, provider, coin, accountId: await fundedUsdAccount(paysvc, funds) };
}

/** Moves the platform clock past the sandbox provider's settlement delay and runs the due jobs. */
async function settle(paysvc: PaysvcClient) {
  const clock = await paysvc.sandbox.getClock();
  await paysvc.sandbox.advanceClock(new Date(Date.parse(clock.now) + 31_000));
  await server.jobs.runDue();
}

describe("stablecoins through the SDK", () => {
  test("register answers 201 with a NOT_ENABLED, unprovisioned stablecoin backed by USD by default", async () => {
    const paysvc = await newClient();
    const body = coinBody();
    const coin = await paysvc.stablecoins.register(body);
    expect(coin.lastResponse.status).toBe(201);
    expect(coin).toMatchObject({
      ...body,
      backingCurrency: "USD",
      supportedOperations: ["MINT", "BURN"],
      enablementStatus: "NOT_ENABLED",
      provisioned: false,
    });
    expect(await paysvc.stablecoins.get(coin.id)).toEqual({ ...coin });
  });

  test("a symbol registered twice is ConflictError STABLECOIN_SYMBOL_ALREADY_EXISTS", async () => {
    const paysvc = await newClient();
    const first = await paysvc.stablecoins.register(coinBody());
    const again = paysvc.stablecoins.register(coinBody({ symbol: first.symbol }));
    await expect(again).rejects.toBeInstanceOf(ConflictError);
    await expect(again).rejects.toMatchObject({ status: 409, code: "STABLECOIN_SYMBOL_ALREADY_EXISTS" });
  });

  test("requestEnablement moves NOT_ENABLED to PENDING_APPROVAL; the sandbox operator steps reach ENABLED", async () => {
    const paysvc = await newClient();
    const coin = await paysvc.stablecoins.register(coinBody());
    expect((await paysvc.stablecoins.requestEnablement(coin.id)).enablementStatus).toBe("PENDING_APPROVAL");
    expect((await paysvc.stablecoins.requestEnablement(coin.id)).enablementStatus).toBe("PENDING_APPROVAL");
    await paysvc.sandbox.setStablecoinEnablement(coin.id, "ENABLING");
    const enabled = await paysvc.sandbox.setStablecoinEnablement(coin.id, "ENABLED");
    expect(enabled.enablementStatus).toBe("ENABLED");
    await expect(paysvc.stablecoins.requestEnablement(coin.id)).rejects.toBeInstanceOf(ConflictError);
  });

  test("listAll walks every registered stablecoin across pages", async () => {
    const paysvc = await newClient();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await paysvc.stablecoins.register(coinBody())).id);
    const page = await paysvc.stablecoins.list({ limit: 2 });
    expect([page.data.length, page.hasMore, page.totalCount]).toEqual([2, true, 3]);
    const all = [];
    for await (const coin of paysvc.stablecoins.listAll({ limit: 2, sortOrder: "asc" })) all.push(coin.id);
    expect(all).toEqual(ids);
  });

  test("a mint answers the hosted StablecoinOperation shape (amount in token units), debits the source account at once and completes when the provider settles", async () => {
    const { paysvc, coin, provider, accountId } = await operable(10_000);
    const mint = await paysvc.stablecoins.mint(coin.id, {
      amount: "25000000",
      fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId: accountId },
      destination: { accountId: provider.id },
    });
    expect(mint.lastResponse.status).toBe(201);
    expect(mint).toMatchObject({
      stablecoinId: coin.id,
      operationType: "MINT",
      status: "PROCESSING",
      amount: "25000000",
      provider: "BRALE",
      providerEnvironment: "SANDBOX",
      stablecoinProviderAccountId: provider.id,
      source: { type: "GRID_INTERNAL_ACCOUNT", accountId },
    });
    expect(mint.destination).toEqual({ accountId: provider.id });
    expect((await paysvc.internalAccounts.get(accountId)).balance.amount).toBe(7_500);
    await settle(paysvc);
    expect(await paysvc.stablecoins.getOperation(mint.id)).toMatchObject({ status: "COMPLETED" });
  });

  test("a burn credits the destination account once it completes; listOperations filters by operationType", async () => {
    const { paysvc, coin, accountId, provider } = await operable(10_000);
    await paysvc.stablecoins.mint(coin.id, {
      amount: "30000000",
      fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId: accountId },
      destination: { accountId: provider.id },
    });
    await settle(paysvc);
    const burn = await paysvc.stablecoins.burn(coin.id, {
      amount: "10000000",
      source: { type: "PROVIDER_INTERNAL_BALANCE" },
      destination: { type: "GRID_INTERNAL_ACCOUNT", accountId },
    });
    expect(burn).toMatchObject({
      operationType: "BURN",
      status: "PROCESSING",
      amount: "10000000",
      source: { type: "PROVIDER_INTERNAL_BALANCE" },
      destination: { accountId },
    });
    await settle(paysvc);
    expect((await paysvc.internalAccounts.get(accountId)).balance.amount).toBe(8_000);
    const burns = [];
    for await (const op of paysvc.stablecoins.listAllOperations(coin.id, { operationType: "BURN" }))
      burns.push(op.id);
    expect(burns).toEqual([burn.id]);
  });

  test("a mint to an external wallet answers the wallet as destination.accountId and completes", async () => {
    const { paysvc, coin, accountId, provider } = await operable();
    const customer = await paysvc.customers.create({ customerType: "INDIVIDUAL" });
    const wallet = await paysvc.externalAccounts.create({
      customerId: customer.id,
      currency: "USDC",
      accountInfo: { accountType: "ETHEREUM_WALLET", address: `0x${randomBytes(20).toString("hex")}` },
    });
    const mint = await paysvc.stablecoins.mint(coin.id, {
      amount: "1000000",
      fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId },
      destination: { accountId: wallet.id },
    });
    expect(mint).toMatchObject({
      stablecoinProviderAccountId: provider.id,
      destination: { accountId: wallet.id },
    });
    await settle(paysvc);
    expect(await paysvc.stablecoins.getOperation(mint.id)).toMatchObject({ status: "COMPLETED" });
  });

  test("a mint the account cannot cover is BadRequestError INSUFFICIENT_FUNDS", async () => {
    const { paysvc, coin, accountId, provider } = await operable(1_000);
    const refused = paysvc.stablecoins.mint(coin.id, {
      amount: "20000000",
      fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId: accountId },
      destination: { accountId: provider.id },
    });
    await expect(refused).rejects.toBeInstanceOf(BadRequestError);
    await expect(refused).rejects.toMatchObject({ status: 400, code: "INSUFFICIENT_FUNDS" });
  });

  test("a mint of a stablecoin that is not enabled is BadRequestError STABLECOIN_GRID_OPERATIONS_NOT_ENABLED", async () => {
    const paysvc = await newClient();
    const coin = await paysvc.stablecoins.register(coinBody());
    const accountId = await fundedUsdAccount(paysvc, 10_000);
    await expect(
      paysvc.stablecoins.mint(coin.id, {
        amount: "1000000",
        fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId: accountId },
        destination: { accountId: "StablecoinProviderAccount:0190d2a1-7c4e-7b3a-9f00-1234567890ab" },
      }),
    ).rejects.toMatchObject({ status: 400, code: "STABLECOIN_GRID_OPERATIONS_NOT_ENABLED" });
  });

  test("a mint replayed with the same idempotency key answers the same operation and debits once", async () => {
    const { paysvc, coin, accountId, provider } = await operable(10_000);
    const body: MintBody = {
      amount: "10000000",
      fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId: accountId },
      destination: { accountId: provider.id },
    };
    const first = await paysvc.stablecoins.mint(coin.id, body, { idempotencyKey: "sdk-mint-1" });
    const again = await paysvc.stablecoins.mint(coin.id, body, { idempotencyKey: "sdk-mint-1" });
    expect(again.id).toBe(first.id);
    expect((await paysvc.internalAccounts.get(accountId)).balance.amount).toBe(9_000);
  });

  test("provider accounts are created, listed by status and revoked for good", async () => {
    const paysvc = await newClient();
    const link = await paysvc.stablecoins.createProviderAccount({
      provider: "PAXOS",
      accountReference: "acct_sdk",
      networks: ["SOLANA", "BASE"],
    });
    expect(link).toMatchObject({ provider: "PAXOS", status: "ACTIVE", networks: ["SOLANA", "BASE"] });
    expect(await paysvc.stablecoins.getProviderAccount(link.id)).toEqual({ ...link });
    const revoked = await paysvc.stablecoins.revokeProviderAccount(link.id);
    expect(revoked).toMatchObject({ status: "REVOKED", revokedAt: expect.any(String) });
    expect((await paysvc.stablecoins.revokeProviderAccount(link.id)).revokedAt).toBe(revoked.revokedAt);
    const active = [];
    for await (const a of paysvc.stablecoins.listAllProviderAccounts({ status: "ACTIVE" })) active.push(a);
    expect(active).toEqual([]);
  });

  test("another platform's stablecoin is NotFoundError STABLECOIN_NOT_FOUND", async () => {
    const owner = await newClient();
    const coin = await owner.stablecoins.register(coinBody());
    const other = await newClient();
    const read = other.stablecoins.get(coin.id);
    await expect(read).rejects.toBeInstanceOf(NotFoundError);
    await expect(read).rejects.toMatchObject({ code: "STABLECOIN_NOT_FOUND" });
  });

  test("getOperation reads GET /stablecoin-operations/{id}; another platform's operation is NotFoundError STABLECOIN_OPERATION_NOT_FOUND", async () => {
    const { paysvc, coin, accountId, provider } = await operable(10_000);
    const mint = await paysvc.stablecoins.mint(coin.id, {
      amount: "4000000",
      fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId },
      destination: { accountId: provider.id },
    });
    const read = await paysvc.stablecoins.getOperation(mint.id);
    expect(read.lastResponse.status).toBe(200);
    expect(read).toMatchObject({
      id: mint.id,
      stablecoinId: coin.id,
      operationType: "MINT",
      amount: "4000000",
    });
    const other = await newClient();
    const foreign = other.stablecoins.getOperation(mint.id);
    await expect(foreign).rejects.toBeInstanceOf(NotFoundError);
    await expect(foreign).rejects.toMatchObject({ code: "STABLECOIN_OPERATION_NOT_FOUND" });
  });
});
