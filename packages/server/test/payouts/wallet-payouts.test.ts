import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEFAULT_WALLET_VERIFICATION_THRESHOLD } from "../../src/core/deps.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { balanceOf, type ErrorBody, ledgerInvariantHolds, type Quote } from "../quotes/helpers.js";
import { advance, changesOf, eventsOf, payer, payout, platformClient, transactionOf } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const THRESHOLD = DEFAULT_WALLET_VERIFICATION_THRESHOLD;
/** One US cent in a 6-decimal stablecoin's minor units. */
const PER_CENT = 10_000;
const HASH = /^0x[0-9a-f]{64}$/;

/** A lowercase EVM address ending in `suffix` (default `abc`: no sandbox outcome, conventions §3.6). */
const evmAddress = (suffix = "abc") =>
  `0x${randomBytes(20)
    .toString("hex")
    .slice(0, 40 - suffix.length)}${suffix}`;

type Wallet = { accountType: string; currency: string; address?: string; lightningAddress?: string };

/**
 * A customer with a funded USD account and one wallet. FIRST_PARTY without `vaspName` is self-custody,
 * so it starts PENDING_OWNERSHIP_VERIFICATION; `vaspName` (custodied) starts ACTIVE.
 */
async function walletPayer(
  client: TestClient,
  wallet: Partial<Wallet> = {},
  options: { funds?: number; vaspName?: string } = {},
) {
  const { customerId, accountId } = await payer(client, { funds: options.funds ?? 1_000_000 });
  const { currency = "USDC", ...accountInfo } = wallet;
  const created = await client.post<{ id: string; status: string } & ErrorBody>(
    "/customers/external-accounts",
    {
      customerId,
      currency,
      ownershipType: "FIRST_PARTY",
      accountInfo: {
        accountType: "ETHEREUM_WALLET",
        ...(accountInfo.lightningAddress ? {} : { address: evmAddress() }),
        ...accountInfo,
        ...(options.vaspName ? { vaspName: options.vaspName } : {}),
      },
    },
  );
  expect(created.status, created.body.reason).toBe(201);
  return { customerId, accountId, walletId: created.body.id, walletStatus: created.body.status };
}

/** Stands in for the ownership endpoints being built alongside: sets the wallet's status directly. */
async function setStatus(walletId: string, status: "ACTIVE" | "UNVERIFIED") {
  await server.db.query("UPDATE external_accounts SET status = $2 WHERE id = $1", [walletId, status]);
}

async function settleOnChain(client: TestClient, transactionId: string) {
  const txn = await transactionOf(client, transactionId);
  await advance(client, new Date(Date.parse(txn.createdAt as string) + 11_000));
  await server.jobs.runDue();
  return transactionOf(client, transactionId);
}

describe("stablecoin payouts to wallets (conventions §3.3, §3.4)", () => {
  test("a USD → USDC quote converts at exchangeRate 1: 1 cent = 10,000 units, exactly; no rail, no fee", async () => {
    const { accountId, walletId } = await walletPayer(server.client);
    const res = await server.client.post<Quote>("/quotes", payout(accountId, walletId, 12_345));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: "PENDING",
      sendingCurrency: { code: "USD", decimals: 2 },
      receivingCurrency: { code: "USDC", decimals: 6 },
      totalSendingAmount: 12_345,
      totalReceivingAmount: 12_345 * PER_CENT,
      exchangeRate: 1,
      feesIncluded: 0,
      platformFeesIncluded: 0,
      destination: { destinationType: "ACCOUNT", accountId: walletId, currency: "USDC" },
    });
    expect(res.body).not.toHaveProperty("paymentRail");
  });

  test("RECEIVING locks the stablecoin amount: whole cents only, else 400 INVALID_INPUT on lockedCurrencyAmount", async () => {
    const { accountId, walletId } = await walletPayer(server.client);
    const exact = await server.client.post<Quote>(
      "/quotes",
      payout(accountId, walletId, 5_000_000, { lockedCurrencySide: "RECEIVING" }),
    );
    expect(exact.status).toBe(201);
    expect(exact.body).toMatchObject({ totalSendingAmount: 500, totalReceivingAmount: 5_000_000 });
    const fraction = await server.client.post<ErrorBody>(
      "/quotes",
      payout(accountId, walletId, 5_000_001, { lockedCurrencySide: "RECEIVING" }),
    );
    expect(fraction.status).toBe(400);
    expect(fraction.body.details?.errors.map((e) => e.field)).toEqual(["lockedCurrencyAmount"]);
  });

  test("execute: one principal balance change, PROCESSING, then COMPLETED after the on-chain job with onChainTransaction", async () => {
    const client = await platformClient(server);
    const { accountId, walletId } = await walletPayer(client);
    const quoted = await client.post<Quote>("/quotes", payout(accountId, walletId, 25_000));
    const executed = await client.post<Quote>(`/quotes/${quoted.body.id}/execute`);
    expect(executed.status).toBe(200);
    expect(executed.body.status).toBe("PROCESSING");
    const transactionId = executed.body.transactionId as string;
    expect(await changesOf(server, transactionId)).toEqual([{ amount: -25_000, fee: 0 }]);
    expect(await balanceOf(server, accountId, client.credentials)).toBe(1_000_000 - 25_000);
    const processing = await transactionOf(client, transactionId);
    expect(processing).toMatchObject({
      type: "OUTGOING",
      status: "PROCESSING",
      sentAmount: { amount: 25_000, currency: { code: "USD" } },
      receivedAmount: { amount: 25_000 * PER_CENT, currency: { code: "USDC" } },
      exchangeRate: 1,
      fees: 0,
      settlementTimelineSeconds: 10,
      destination: { destinationType: "ACCOUNT", accountId: walletId },
    });
    expect(processing).not.toHaveProperty("paymentRail");
    expect(processing.destination).not.toHaveProperty("onChainTransaction");
    const completed = await settleOnChain(client, transactionId);
    expect(completed.status).toBe("COMPLETED");
    expect(completed.settledAt).toBeDefined();
    const onChain = (completed.destination as { onChainTransaction: { transactionHash: string } })
      .onChainTransaction;
    expect(onChain).toEqual({ transactionHash: expect.stringMatching(HASH), network: "ETHEREUM" });
    expect((await client.get<Quote>(`/quotes/${quoted.body.id}`)).body.status).toBe("COMPLETED");
    expect(await eventsOf(server, transactionId)).toEqual([
      "OUTGOING_PAYMENT.PROCESSING",
      "OUTGOING_PAYMENT.COMPLETED",
    ]);
    await ledgerInvariantHolds(server);
  });

  test("platformFeeOverride applies (USD source): a principal change and a fee change; no feeConfigs rail fits", async () => {
    const client = await platformClient(server);
    await client.patch("/config", { feeConfigs: [{ rail: "ACH", fixedAmount: 99 }] });
    const { accountId, walletId } = await walletPayer(client);
    const plain = await client.post<Quote>("/quotes", payout(accountId, walletId, 10_000));
    expect(plain.body.feesIncluded).toBe(0);
    const res = await client.post<Quote>(
      "/quotes",
      payout(accountId, walletId, 10_000, { platformFeeOverride: 50, immediatelyExecute: true }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ feesIncluded: 50, totalReceivingAmount: 9_950 * PER_CENT });
    expect(await changesOf(server, res.body.transactionId as string)).toEqual([
      { amount: -9_950, fee: 0 },
      { amount: -50, fee: -50 },
    ]);
  });

  test("the platform's USD account pays out to a platform-owned wallet", async () => {
    const client = await platformClient(server);
    const accounts = await client.get<{ data: { id: string }[] }>("/platform/internal-accounts?currency=USD");
    const accountId = accounts.body.data[0]?.id as string;
    await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 50_000 });
    const wallet = await client.post<{ id: string; status: string }>("/platform/external-accounts", {
      currency: "USDC",
      ownershipType: "FIRST_PARTY",
      accountInfo: { accountType: "BASE_WALLET", address: evmAddress() },
    });
    expect(wallet.body.status).toBe("PENDING_OWNERSHIP_VERIFICATION");
    const res = await client.post<Quote>(
      "/quotes",
      payout(accountId, wallet.body.id, 20_000, { immediatelyExecute: true }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "PROCESSING", totalReceivingAmount: 20_000 * PER_CENT });
    expect(await balanceOf(server, accountId, client.credentials)).toBe(30_000);
  });

  test.each([
    ["ETHEREUM_WALLET", "USDT", evmAddress(), "ETHEREUM"],
    ["BASE_WALLET", "USDC", evmAddress(), "BASE"],
    ["POLYGON_WALLET", "USDB", evmAddress(), "POLYGON"],
    ["PLASMA_WALLET", "USDT", evmAddress(), "PLASMA"],
    ["SOLANA_WALLET", "USDC", "So11111111111111111111111111111111111111112", "SOLANA"],
    ["TRON_WALLET", "USDT", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "TRON"],
  ])(
    "%s (%s): the on-chain transaction names network %s",
    async (accountType, currency, address, network) => {
      const client = await platformClient(server);
      const { accountId, walletId } = await walletPayer(client, { accountType, currency, address });
      const res = await client.post<Quote>(
        "/quotes",
        payout(accountId, walletId, 1_000, { immediatelyExecute: true }),
      );
      expect(res.status).toBe(201);
      expect(res.body.receivingCurrency.code).toBe(currency);
      const completed = await settleOnChain(client, res.body.transactionId as string);
      expect(completed.status).toBe("COMPLETED");
      expect(completed.destination).toMatchObject({ onChainTransaction: { network } });
    },
  );

  test("sandbox outcomes read the wallet address suffix (§3.6): 002 fails at once, refunded, no on-chain transaction", async () => {
    const client = await platformClient(server);
    const { accountId, walletId } = await walletPayer(client, { address: evmAddress("002") });
    const res = await client.post<Quote>(
      "/quotes",
      payout(accountId, walletId, 1_000, { immediatelyExecute: true }),
    );
    expect(res.body.status).toBe("PROCESSING");
    await server.jobs.runDue();
    const txn = await transactionOf(client, res.body.transactionId as string);
    expect(txn).toMatchObject({ status: "FAILED", failureReason: "QUOTE_EXECUTION_FAILED" });
    expect(txn.destination).not.toHaveProperty("onChainTransaction");
    expect(await balanceOf(server, accountId, client.credentials)).toBe(1_000_000);
  });
});

describe("regulatory threshold for wallets that are not ACTIVE (conventions §4.1)", () => {
  const over = (reason: string) =>
    expect(reason).toMatch(new RegExp(`threshold of ${THRESHOLD} USD cents.*PENDING_OWNERSHIP_VERIFICATION`));

  test("a FIRST_PARTY self-custody wallet starts PENDING_OWNERSHIP_VERIFICATION and is usable at the threshold", async () => {
    const { accountId, walletId, walletStatus } = await walletPayer(server.client);
    expect(walletStatus).toBe("PENDING_OWNERSHIP_VERIFICATION");
    for (const amount of [THRESHOLD - 1, THRESHOLD]) {
      const res = await server.client.post<Quote>(
        "/quotes",
        payout(accountId, walletId, amount, { immediatelyExecute: true }),
      );
      expect(res.status).toBe(201);
      expect(res.body.status).toBe("PROCESSING");
    }
  });

  test("above the threshold -> 400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED naming the threshold and status", async () => {
    const { accountId, walletId } = await walletPayer(server.client);
    const res = await server.client.post<ErrorBody>("/quotes", payout(accountId, walletId, THRESHOLD + 1));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED");
    over(res.body.reason);
  });

  test("the threshold is on the USD principal: RECEIVING a stablecoin amount just above it is refused", async () => {
    const { accountId, walletId } = await walletPayer(server.client);
    const body = payout(accountId, walletId, (THRESHOLD + 1) * PER_CENT, { lockedCurrencySide: "RECEIVING" });
    const res = await server.client.post<ErrorBody>("/quotes", body);
    expect(res.body.code).toBe("EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED");
  });

  test("an ACTIVE wallet has no threshold: custodied (vaspName) at creation, or self-custody once verified", async () => {
    const custodied = await walletPayer(server.client, {}, { vaspName: "Coinbase" });
    expect(custodied.walletStatus).toBe("ACTIVE");
    const verified = await walletPayer(server.client);
    // The ownership endpoints are being built alongside; a verified wallet is ACTIVE (conventions §4.3).
    await setStatus(verified.walletId, "ACTIVE");
    for (const { accountId, walletId } of [custodied, verified]) {
      const res = await server.client.post<Quote>(
        "/quotes",
        payout(accountId, walletId, THRESHOLD * 5, { immediatelyExecute: true }),
      );
      expect(res.status).toBe(201);
    }
  });

  test("an UNVERIFIED wallet (failed ownership attempt) -> 400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED at any amount", async () => {
    const { accountId, walletId } = await walletPayer(server.client);
    // Stands in for a failed verify, which moves the wallet to UNVERIFIED (conventions §4.3).
    await setStatus(walletId, "UNVERIFIED");
    for (const amount of [1, THRESHOLD + 1]) {
      const res = await server.client.post<ErrorBody>("/quotes", payout(accountId, walletId, amount));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED");
      expect(res.body.reason).toMatch(/UNVERIFIED/);
    }
  });

  test("execute re-checks: a wallet that became UNVERIFIED after the quote -> 400, nothing debited", async () => {
    const { accountId, walletId } = await walletPayer(server.client);
    const quoted = await server.client.post<Quote>("/quotes", payout(accountId, walletId, 1_000));
    expect(quoted.status).toBe(201);
    await setStatus(walletId, "UNVERIFIED");
    const res = await server.client.post<ErrorBody>(`/quotes/${quoted.body.id}/execute`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED");
    expect(await balanceOf(server, accountId)).toBe(1_000_000);
    expect((await server.client.get<Quote>(`/quotes/${quoted.body.id}`)).body.status).toBe("PENDING");
  });

  test("the threshold is configurable (Deps.walletVerificationThreshold, env PAYSVC_WALLET_VERIFICATION_THRESHOLD)", async () => {
    const small = await startServer({ walletVerificationThreshold: 500 });
    try {
      const { accountId, walletId } = await walletPayer(small.client);
      expect((await small.client.post("/quotes", payout(accountId, walletId, 500))).status).toBe(201);
      const res = await small.client.post<ErrorBody>("/quotes", payout(accountId, walletId, 501));
      expect(res.body.code).toBe("EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED");
      expect(res.body.reason).toMatch(/threshold of 500 USD cents/);
    } finally {
      await small.close();
    }
  });
});

describe("what wallet payouts refuse", () => {
  test.each([
    [
      "BITCOIN_WALLET",
      {
        accountType: "BITCOIN_WALLET",
        currency: "BTC",
        address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
      },
    ],
    ["LIGHTNING", { accountType: "LIGHTNING", currency: "BTC", lightningAddress: "ada@example.com" }],
  ])("%s -> 501 NOT_IMPLEMENTED: no BTC pricing", async (_name, wallet) => {
    const { accountId, walletId } = await walletPayer(server.client, wallet);
    const res = await server.client.post<ErrorBody>("/quotes", payout(accountId, walletId, 1_000));
    expect(res.status).toBe(501);
    expect(res.body.code).toBe("NOT_IMPLEMENTED");
    expect(res.body.reason).toMatch(/no BTC pricing/);
  });

  test("another customer's wallet -> 404 ACCOUNT_NOT_FOUND", async () => {
    const mine = await walletPayer(server.client);
    const theirs = await walletPayer(server.client);
    const res = await server.client.post<ErrorBody>(
      "/quotes",
      payout(mine.accountId, theirs.walletId, 1_000),
    );
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("ACCOUNT_NOT_FOUND");
  });

  test("destination.currency other than the wallet's -> 400 INVALID_INPUT on destination.currency", async () => {
    const { accountId, walletId } = await walletPayer(server.client);
    const body = payout(accountId, walletId, 1_000);
    const res = await server.client.post<ErrorBody>("/quotes", {
      ...body,
      destination: { ...body.destination, currency: "USDT" },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["destination.currency"]);
  });

  test("a paymentRail on a wallet payout -> 400 INVALID_INPUT on destination.paymentRail (on chain, no rail)", async () => {
    const { accountId, walletId } = await walletPayer(server.client);
    const res = await server.client.post<ErrorBody>(
      "/quotes",
      payout(accountId, walletId, 1_000, { paymentRail: "ACH" }),
    );
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["destination.paymentRail"]);
  });

  test("/transfer-out to a wallet stays 501 NOT_IMPLEMENTED (payouts to wallets go through POST /quotes)", async () => {
    const { accountId, walletId } = await walletPayer(server.client);
    const res = await server.client.post<ErrorBody>("/transfer-out", {
      source: { accountId },
      destination: { accountId: walletId },
      amount: 1_000,
    });
    expect(res.status).toBe(501);
  });
});
