import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { type ErrorBody, newAccount } from "../quotes/helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const SOLANA_ADDRESS = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU";
type Estimate = {
  networkFee: number;
  networkFeeAsset: string;
  applicationFee: number;
  totalFee: number;
  netAmount: number;
};

let wallet: string;
beforeAll(async () => {
  wallet = await newAccount(server, { currency: "USDB", email: "fees@example.com" });
});

const estimate = (body: Record<string, unknown>) =>
  server.client.post<Estimate & ErrorBody>("/crypto/estimate-withdrawal-fee", {
    internalAccountId: wallet,
    currency: "USDB",
    cryptoNetwork: "SOLANA",
    amount: 1_000_000,
    destinationAddress: SOLANA_ADDRESS,
    ...body,
  });

describe("POST /crypto/estimate-withdrawal-fee", () => {
  test("answers the network's fee, the total, and netAmount = amount - totalFee, in the stablecoin's minor units", async () => {
    const res = await estimate({});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      networkFee: 5_000,
      networkFeeAsset: "SOL",
      applicationFee: 0,
      totalFee: 5_000,
      netAmount: 995_000,
    });
  });

  test("the fee depends on the network: Ethereum costs more than Base", async () => {
    const address = "0x52908400098527886e0f7030069857d2e4169ee7";
    const eth = await estimate({
      cryptoNetwork: "ETHEREUM",
      destinationAddress: address,
      amount: 10_000_000,
    });
    const base = await estimate({ cryptoNetwork: "BASE", destinationAddress: address, amount: 10_000_000 });
    expect(eth.body.networkFeeAsset).toBe("ETH");
    expect(eth.body.totalFee).toBeGreaterThan(base.body.totalFee);
  });

  test("every bad field is one FieldError in one 400: currency, network, address", async () => {
    const res = await estimate({ currency: "USD", cryptoNetwork: "DOGE" });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field).sort()).toEqual(["cryptoNetwork", "currency"]);
    const address = await estimate({ destinationAddress: "not-an-address" });
    expect(address.status).toBe(400);
    expect(address.body.details?.errors.map((e) => e.field)).toEqual(["destinationAddress"]);
  });

  test("fees that leave nothing to arrive -> 400 AMOUNT_OUT_OF_RANGE", async () => {
    const res = await estimate({ amount: 5_000 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("AMOUNT_OUT_OF_RANGE");
  });

  test("another platform's account -> 404 ACCOUNT_NOT_FOUND", async () => {
    const other = await server.newPlatform();
    const res = await server.client.post<ErrorBody>(
      "/crypto/estimate-withdrawal-fee",
      {
        internalAccountId: wallet,
        currency: "USDB",
        cryptoNetwork: "SOLANA",
        amount: 1_000_000,
        destinationAddress: SOLANA_ADDRESS,
      },
      { auth: other },
    );
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("ACCOUNT_NOT_FOUND");
  });
});
