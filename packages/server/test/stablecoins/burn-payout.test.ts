import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { setDailyVolumeLimit } from "../../src/quotes/daily-volume.js";
import type { StablecoinOperation } from "../../src/stablecoins/schemas.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { eventsOf, payer } from "../payouts/helpers.js";
import {
  balanceOf,
  enableAndProvision,
  fiatLeg,
  linkProvider,
  mintBody,
  register,
  settle,
  units,
} from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type Txn = {
  id: string;
  type: string;
  status: string;
  paymentRail?: string;
  failureReason?: string;
  sentAmount: { amount: number };
  destination: { accountId?: string };
};

/**
 * A platform whose customer has a USD account (5,000 left after minting 5,000 into the provider treasury)
 * and a USD bank account whose number ends in `suffix` (the sandbox payout outcome, conventions §3.6).
 */
async function redeemable(suffix = "000") {
  const platform = await server.newPlatform();
  const client = server.client.as(platform);
  const provider = await linkProvider(client);
  const coin = await register(client);
  await enableAndProvision(client, coin.id);
  const { customerId, accountId, externalId } = await payer(client, { suffix, funds: 10_000 });
  const mint = await client.post(
    `/stablecoins/${coin.id}/mints`,
    mintBody(accountId, provider.id, units(5_000)),
  );
  expect(mint.status, mint.text).toBe(201);
  await settle(server, client);
  return { platform, client, coin, customerId, accountId, externalId };
}

function burnTo(externalAccountId: string, cents: number, rail = "ACH_CREDIT") {
  return {
    amount: units(cents),
    source: { type: "PROVIDER_INTERNAL_BALANCE" },
    destination: { type: "EXTERNAL_ACCOUNT", externalAccountId, rail },
  };
}

/** Settles the burn, then runs the payout job it schedules and what that schedules at once. */
async function settleAndPayOut(client: TestClient) {
  await settle(server, client);
  await server.jobs.runDue();
  await server.jobs.runDue();
}

/** The payout of a burn: the OUTGOING transaction to the external account. */
async function payoutTo(client: TestClient, externalId: string): Promise<Txn | undefined> {
  const res = await client.get<{ data: Txn[] }>("/transactions?limit=100");
  return res.body.data.find((t) => t.type === "OUTGOING" && t.destination.accountId === externalId);
}

describe("a burn to the hosted EXTERNAL_ACCOUNT destination pays the redeemed money out to that bank account", () => {
  test("the burn answers destination {accountId, rail}; completed, it credits the owner's account and pays out over the mapped rail", async () => {
    const { client, coin, accountId, externalId } = await redeemable();
    const burn = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/burns`,
      burnTo(externalId, 2_000),
    );
    expect(burn.status, burn.text).toBe(201);
    expect(burn.body).toMatchObject({
      status: "PROCESSING",
      destination: { accountId: externalId, rail: "ACH_CREDIT" },
    });
    expect(await payoutTo(client, externalId)).toBeUndefined();
    await settleAndPayOut(client);
    const read = await client.get<StablecoinOperation>(`/stablecoin-operations/${burn.body.id}`);
    expect(read.body).toMatchObject({
      status: "COMPLETED",
      destination: { accountId: externalId, rail: "ACH_CREDIT" },
    });
    const credit = await fiatLeg(client, burn.body.id);
    expect(credit).toMatchObject({ type: "INCOMING", status: "COMPLETED", destination: { accountId } });
    const payout = await payoutTo(client, externalId);
    expect(payout).toMatchObject({ status: "PROCESSING", paymentRail: "ACH", sentAmount: { amount: 2_000 } });
    expect(await eventsOf(server, payout?.id as string)).toEqual(["OUTGOING_PAYMENT.PROCESSING"]);
    // Credited 2,000, then 2,000 sent (fees included): the account is back where the burn found it.
    expect(await balanceOf(client, accountId)).toBe(5_000);
  });

  test("a payout that fails after the burn (number ending 002) refunds the internal account; the burn stays COMPLETED", async () => {
    const { client, coin, accountId, externalId } = await redeemable("002");
    const burn = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/burns`,
      burnTo(externalId, 2_000),
    );
    expect(burn.status, burn.text).toBe(201);
    await settleAndPayOut(client);
    const read = await client.get<StablecoinOperation>(`/stablecoin-operations/${burn.body.id}`);
    expect(read.body).toMatchObject({ status: "COMPLETED" });
    const payout = await payoutTo(client, externalId);
    expect(payout).toMatchObject({ status: "FAILED", failureReason: "QUOTE_EXECUTION_FAILED" });
    expect(await eventsOf(server, payout?.id as string)).toContain("OUTGOING_PAYMENT.FAILED");
    expect(await balanceOf(client, accountId)).toBe(7_000);
  });

  test("a payout refused when it executes (daily volume limit reached) leaves the money in the internal account; the burn stays COMPLETED", async () => {
    const { platform, client, coin, accountId, externalId } = await redeemable();
    const burn = await client.post<StablecoinOperation>(
      `/stablecoins/${coin.id}/burns`,
      burnTo(externalId, 2_000),
    );
    expect(burn.status, burn.text).toBe(201);
    await setDailyVolumeLimit(server.deps, platform.platformId, 0);
    await settleAndPayOut(client);
    const read = await client.get<StablecoinOperation>(`/stablecoin-operations/${burn.body.id}`);
    expect(read.body).toMatchObject({ status: "COMPLETED" });
    expect(await payoutTo(client, externalId)).toBeUndefined();
    expect(await balanceOf(client, accountId)).toBe(7_000);
  });
});

describe("an EXTERNAL_ACCOUNT burn destination is checked when the burn is requested, and nothing is burned", () => {
  test("an unknown external account -> 404 ACCOUNT_NOT_FOUND", async () => {
    const { client, coin } = await redeemable();
    const unknown = "ExternalAccount:0190d2a1-7c4e-7b3a-9f00-1234567890ab";
    const res = await client.post(`/stablecoins/${coin.id}/burns`, burnTo(unknown, 1_000));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
  });

  test("a wallet -> 400 STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED", async () => {
    const { client, coin, customerId } = await redeemable();
    const wallet = await client.post<{ id: string }>("/customers/external-accounts", {
      customerId,
      currency: "USDC",
      accountInfo: { accountType: "ETHEREUM_WALLET", address: `0x${randomBytes(20).toString("hex")}` },
    });
    expect(wallet.status, wallet.text).toBe(201);
    const res = await client.post(`/stablecoins/${coin.id}/burns`, burnTo(wallet.body.id, 1_000));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED" });
  });

  test("a bank account that failed validation (number ending 009) -> 400 INVALID_BANK_ACCOUNT", async () => {
    const { client, coin } = await redeemable();
    const { externalId } = await payer(client, { suffix: "009", funds: 0 });
    const res = await client.post(`/stablecoins/${coin.id}/burns`, burnTo(externalId, 1_000));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_BANK_ACCOUNT" });
  });

  test("a rail outside the hosted enum -> 400 INVALID_INPUT on destination.rail", async () => {
    const { client, coin, externalId, accountId } = await redeemable();
    const res = await client.post(`/stablecoins/${coin.id}/burns`, burnTo(externalId, 1_000, "SWIFT"));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "INVALID_INPUT",
      details: { errors: [expect.objectContaining({ field: "destination.rail" })] },
    });
    expect(await balanceOf(client, accountId)).toBe(5_000);
  });
});
