import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { balanceOf, burnBody, linkProvider, operable, settle, units } from "./helpers.js";

type Operation = {
  id: string;
  status: string;
  stablecoinProviderAccountId: string;
  destination?: { accountId: string };
};
type ErrorBody = { code: string; details?: { errors: { field: string }[] } };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** A customer's external wallet of `accountType` (the platform's customers' wallets receive mints too). */
async function wallet(client: TestClient, accountType = "ETHEREUM_WALLET"): Promise<string> {
  const customer = await client.post<{ id: string }>("/customers", { customerType: "INDIVIDUAL" });
  expect(customer.status, customer.text).toBe(201);
  const address =
    accountType === "SOLANA_WALLET"
      ? "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV"
      : `0x${randomBytes(20).toString("hex")}`;
  const res = await client.post<{ id: string }>("/customers/external-accounts", {
    customerId: customer.body.id,
    currency: "USDC",
    accountInfo: { accountType, address },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

const mintTo = (client: TestClient, coinId: string, body: Record<string, unknown>) =>
  client.post<Operation & ErrorBody>(`/stablecoins/${coinId}/mints`, body);

describe("a mint's destination.accountId as the hosted StablecoinMintDestination: the wallet that receives the tokens", () => {
  test("a mint to an external wallet on the token's network answers it as destination, debits the payer and leaves the treasury empty", async () => {
    const { client, provider, coin, accountId } = await operable(server);
    const walletId = await wallet(client);
    const res = await mintTo(client, coin.id, {
      amount: units(2_500),
      fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId },
      destination: { accountId: walletId },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      status: "PROCESSING",
      stablecoinProviderAccountId: provider.id,
      destination: { accountId: walletId },
    });
    expect(await balanceOf(client, accountId)).toBe(97_500);
    await settle(server, client);
    const read = await client.get<Operation>(`/stablecoin-operations/${res.body.id}`);
    expect(read.body).toMatchObject({ status: "COMPLETED", destination: { accountId: walletId } });
    // The tokens left for the wallet: the provider account's treasury has none to burn.
    const burn = await client.post<ErrorBody>(
      `/stablecoins/${coin.id}/burns`,
      burnBody(accountId, units(100)),
    );
    expect([burn.status, burn.body.code]).toEqual([400, "STABLECOIN_BURN_SOURCE_NOT_SUPPORTED"]);
  });

  test("with several provider accounts a wallet destination needs stablecoinProviderAccountId (400 STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED)", async () => {
    const { client, coin, accountId } = await operable(server);
    const second = await linkProvider(client);
    const walletId = await wallet(client);
    const body = {
      amount: units(100),
      fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId },
      destination: { accountId: walletId },
    };
    const ambiguous = await mintTo(client, coin.id, body);
    expect([ambiguous.status, ambiguous.body.code]).toEqual([
      400,
      "STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED",
    ]);
    const named = await mintTo(client, coin.id, { ...body, stablecoinProviderAccountId: second.id });
    expect(named.status, named.text).toBe(201);
    expect(named.body.stablecoinProviderAccountId).toBe(second.id);
  });

  test("a wallet on another network -> 400 STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED; an unknown external account -> 404 ACCOUNT_NOT_FOUND; nothing debited", async () => {
    const { client, coin, accountId } = await operable(server);
    const solana = await wallet(client, "SOLANA_WALLET");
    const body = (destination: string) => ({
      amount: units(100),
      fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId },
      destination: { accountId: destination },
    });
    const other = await mintTo(client, coin.id, body(solana));
    expect([other.status, other.body.code]).toEqual([400, "STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED"]);
    const unknown = await mintTo(
      client,
      coin.id,
      body("ExternalAccount:0190f1c8-1111-7000-8000-000000000abc"),
    );
    expect([unknown.status, unknown.body.code]).toEqual([404, "ACCOUNT_NOT_FOUND"]);
    expect(await balanceOf(client, accountId)).toBe(100_000);
  });

  test("a provider account destination keeps minting into its treasury; naming another stablecoinProviderAccountId -> 400 on it", async () => {
    const { client, provider, coin, accountId } = await operable(server);
    const second = await linkProvider(client);
    const body = {
      amount: units(100),
      fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId },
      destination: { accountId: provider.id },
    };
    const mismatch = await mintTo(client, coin.id, { ...body, stablecoinProviderAccountId: second.id });
    expect([mismatch.status, mismatch.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(mismatch.body.details?.errors.map((e) => e.field)).toEqual(["stablecoinProviderAccountId"]);
    const res = await mintTo(client, coin.id, { ...body, stablecoinProviderAccountId: provider.id });
    expect(res.body.destination).toEqual({ accountId: provider.id });
  });
});
