import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../../server/test/harness.js";
import { ConflictError, NotFoundError, PaysvcClient } from "../src/index.js";
import { withEndUserTerms } from "./end-user-terms.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function client() {
  return new PaysvcClient({ baseUrl: server.baseUrl, ...(await server.newPlatform()) });
}

async function usdAccount(paysvc: PaysvcClient): Promise<string> {
  const customer = await paysvc.customers.create({ customerType: "INDIVIDUAL", ...withEndUserTerms });
  const accounts = await paysvc.internalAccounts.listForCustomers({
    customerId: customer.id,
    currency: "USD",
  });
  const id = accounts.data[0]?.id;
  if (!id) throw new Error("no USD account");
  return id;
}

describe("quotes through the SDK", () => {
  test("an unknown quote, to read or to pay, is a NotFoundError (QUOTE_NOT_FOUND)", async () => {
    const paysvc = await client();
    await expect(paysvc.quotes.get("Quote:unknown")).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      paysvc.sandbox.send({ quoteId: "Quote:019542f5-b3e7-7d02-8000-000000000006", currencyCode: "USD" }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  test("create then execute a transfer between internal accounts", async () => {
    const paysvc = await client();
    const from = await usdAccount(paysvc);
    const to = await usdAccount(paysvc);
    await paysvc.sandbox.fund(from, 5_000);
    const quote = await paysvc.quotes.create({
      source: { sourceType: "ACCOUNT", accountId: from },
      destination: { destinationType: "ACCOUNT", accountId: to },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 1_000,
    });
    expect(quote.lastResponse.status).toBe(201);
    expect((await paysvc.quotes.get(quote.id)).status).toBe("PENDING");
    const executed = await paysvc.quotes.execute(quote.id);
    expect(executed.status).toBe("COMPLETED");
    await expect(paysvc.quotes.execute(quote.id)).rejects.toBeInstanceOf(ConflictError);
  });

  test("a realtime-funded quote is paid with sandbox.send and its money lands", async () => {
    const paysvc = await client();
    const to = await usdAccount(paysvc);
    const quote = await paysvc.quotes.create({
      source: { sourceType: "REALTIME_FUNDING", currency: "USD" },
      destination: { destinationType: "ACCOUNT", accountId: to },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 4_200,
    });
    expect(quote.paymentInstructions?.[0]?.accountOrWalletInfo.accountType).toBe("USD_ACCOUNT");
    const arrived = await paysvc.sandbox.send({ quoteId: quote.id, currencyCode: "USD" });
    expect(arrived).toMatchObject({ id: quote.transactionId, status: "COMPLETED" });
    expect((await paysvc.internalAccounts.get(to)).totalBalance.amount).toBe(quote.totalReceivingAmount);
    await expect(paysvc.sandbox.send({ quoteId: quote.id, currencyCode: "USD" })).rejects.toBeInstanceOf(
      ConflictError,
    );
  });

  test("a payout cancelled before it settles is FAILED and refunded; a settled one cannot be cancelled", async () => {
    const paysvc = await client();
    const from = await usdAccount(paysvc);
    const to = await usdAccount(paysvc);
    await paysvc.sandbox.fund(from, 5_000);
    const done = await paysvc.quotes.create({
      source: { sourceType: "ACCOUNT", accountId: from },
      destination: { destinationType: "ACCOUNT", accountId: to },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 1_000,
      immediatelyExecute: true,
    });
    await expect(paysvc.transactions.cancel(done.transactionId)).rejects.toBeInstanceOf(ConflictError);
    const confirmed = await paysvc.transactions.confirm(done.transactionId);
    expect(confirmed.receiptDeliveryConfirmedAt).toBeDefined();
  });

  test("crypto.estimateWithdrawalFee answers the fees and what arrives", async () => {
    const paysvc = await client();
    const customer = await paysvc.customers.create({
      customerType: "INDIVIDUAL",
      email: "sdk-fees@example.com",
      ...withEndUserTerms,
    });
    const wallets = await paysvc.internalAccounts.listForCustomers({
      customerId: customer.id,
      currency: "USDB",
    });
    const estimate = await paysvc.crypto.estimateWithdrawalFee({
      internalAccountId: wallets.data[0]?.id ?? "",
      currency: "USDB",
      cryptoNetwork: "SOLANA",
      amount: 1_000_000,
      destinationAddress: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
    });
    expect(estimate.netAmount).toBe(1_000_000 - estimate.totalFee);
  });

  test("discoveries.list answers where payouts reach, filtered by country", async () => {
    const paysvc = await client();
    const mexico = await paysvc.discoveries.list({ country: "MX" });
    expect(mexico.data.length).toBeGreaterThan(0);
    expect(
      mexico.data.every((entry) => entry.currency === "MXN" && entry.paymentRails.includes("SPEI")),
    ).toBe(true);
  });

  test("an off-ramp from an embedded wallet executes with the wallet's session key (executeFromWallet)", async () => {
    const paysvc = await client();
    const customer = await paysvc.customers.create({
      customerType: "INDIVIDUAL",
      email: "offramp@example.com",
      ...withEndUserTerms,
    });
    const wallet = (
      await paysvc.internalAccounts.listForCustomers({ customerId: customer.id, currency: "USDB" })
    ).data[0]?.id as string;
    const usd = (await paysvc.internalAccounts.listForCustomers({ customerId: customer.id, currency: "USD" }))
      .data[0]?.id as string;
    await paysvc.sandbox.fund(wallet, 20_000_000);
    const quote = await paysvc.quotes.create({
      source: { sourceType: "ACCOUNT", accountId: wallet },
      destination: { destinationType: "ACCOUNT", accountId: usd },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 10_000_000,
    });
    await expect(paysvc.quotes.execute(quote.id)).rejects.toMatchObject({ code: "WALLET_SIGNATURE_MISSING" });
    const { sessionKey } = await paysvc.wallet.loginWithEmailOtp({ accountId: wallet, otpCode: "000000" });
    const executed = await paysvc.quotes.executeFromWallet(quote, sessionKey);
    expect(executed.status).toBe("COMPLETED");
    expect((await paysvc.internalAccounts.get(usd)).totalBalance.amount).toBe(quote.totalReceivingAmount);
  });
});
