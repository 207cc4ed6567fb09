import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import type { Stablecoin, StablecoinProviderAccount } from "../../src/stablecoins/schemas.js";
import { newUsdAccount, type TestClient, type TestServer } from "../harness.js";

/** A random, valid lowercase EVM contract address (no checksum to satisfy). */
export function evmAddress(): string {
  return `0x${randomBytes(20).toString("hex")}`;
}

let counter = 0;
/** A symbol no other test in the file uses. */
export function uniqueSymbol(prefix = "TK"): string {
  counter += 1;
  return `${prefix}${counter}${randomBytes(2).toString("hex").toUpperCase()}`.slice(0, 12);
}

export async function register(
  client: TestClient,
  overrides: Record<string, unknown> = {},
): Promise<Stablecoin> {
  const res = await client.post<Stablecoin>("/stablecoins", {
    symbol: uniqueSymbol(),
    name: "Test Dollar",
    network: "ETHEREUM",
    tokenIdentifier: evmAddress(),
    decimals: 6,
    ...overrides,
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** Drives a stablecoin through the operator steps to ENABLED and provisioned. */
export async function enableAndProvision(client: TestClient, id: string): Promise<void> {
  expect((await client.post(`/stablecoins/${id}/request-enablement`)).status).toBe(200);
  for (const status of ["ENABLING", "ENABLED"]) {
    expect((await client.post(`/sandbox/stablecoins/${id}/enablement`, { status })).status).toBe(200);
  }
  expect((await client.post(`/sandbox/stablecoins/${id}/provision`)).status).toBe(200);
}

export async function linkProvider(
  client: TestClient,
  networks: string[] = ["ETHEREUM", "SOLANA"],
): Promise<StablecoinProviderAccount> {
  const res = await client.post<StablecoinProviderAccount>("/stablecoin-provider-accounts", {
    provider: "BRALE",
    accountReference: `acct_${randomBytes(4).toString("hex")}`,
    networks,
  });
  expect(res.status).toBe(201);
  return res.body;
}

export async function fundedUsdAccount(client: TestClient, amount: number): Promise<string> {
  const accountId = await newUsdAccount(client);
  if (amount > 0) {
    expect((await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount })).status).toBe(200);
  }
  return accountId;
}

export async function balanceOf(client: TestClient, accountId: string): Promise<number> {
  const res = await client.get<{ balance: { amount: number } }>(`/internal-accounts/${accountId}`);
  expect(res.status).toBe(200);
  return res.body.balance.amount;
}

/** A fresh sandbox platform with one provider link, an ENABLED provisioned coin and a funded USD account. */
export async function operable(server: TestServer, funds = 100_000) {
  const platform = await server.newPlatform();
  const client = server.client.as(platform);
  const provider = await linkProvider(client);
  const coin = await register(client);
  await enableAndProvision(client, coin.id);
  const accountId = await fundedUsdAccount(client, funds);
  return { platform, client, provider, coin, accountId };
}

/** Moves the platform clock past the provider's settlement delay and runs the due jobs. */
export async function settle(server: TestServer, client: TestClient): Promise<void> {
  const clock = await client.get<{ now: string }>("/sandbox/clock");
  const to = new Date(Date.parse(clock.body.now) + 31_000).toISOString();
  expect((await client.post("/sandbox/clock/advance", { to })).status).toBe(200);
  await server.jobs.runDue();
}

type FiatLeg = {
  id: string;
  type: string;
  status: string;
  source: { operationId?: string };
  destination: { operationId?: string };
  [field: string]: unknown;
};

/**
 * The transaction carrying an operation's fiat leg, found the way a platform finds it: in `GET /transactions`,
 * by the `operationId` its destination (mint) or source (burn) names.
 */
export async function fiatLeg(client: TestClient, operationId: string): Promise<FiatLeg> {
  const res = await client.get<{ data: FiatLeg[] }>("/transactions?limit=100");
  expect(res.status).toBe(200);
  const leg = res.body.data.find(
    (t) => t.source.operationId === operationId || t.destination.operationId === operationId,
  );
  if (!leg) throw new Error(`no transaction carries ${operationId}`);
  return leg;
}

/** Cents of a USD-backed token as the token's smallest units (a decimal string, as requests take them). */
export function units(cents: number, decimals = 6): string {
  return decimals >= 2
    ? (BigInt(cents) * 10n ** BigInt(decimals - 2)).toString()
    : (BigInt(cents) / 10n ** BigInt(2 - decimals)).toString();
}

/** The hosted StablecoinMintRequest: paid from an internal account, minted into a provider link's treasury. */
export function mintBody(accountId: string, providerAccountId: string, amount: string, extra = {}) {
  return {
    amount,
    fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId },
    destination: { accountId: providerAccountId },
    ...extra,
  };
}

/** The hosted StablecoinBurnRequest: tokens from the provider treasury, money to an internal account. */
export function burnBody(accountId: string, amount: string, extra = {}) {
  return {
    amount,
    source: { type: "PROVIDER_INTERNAL_BALANCE" },
    destination: { type: "GRID_INTERNAL_ACCOUNT", accountId },
    ...extra,
  };
}
