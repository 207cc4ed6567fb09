import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { accountInfo, corridors } from "../external-accounts/corridor-examples.js";
import { type Credentials, startServer, type TestServer } from "../harness.js";
import { advance, changesOf, platformClient, transactionOf } from "../payouts/helpers.js";
import { balanceOf, type ErrorBody, fund, newAccount, type Quote, transfer } from "../quotes/helpers.js";

type Instructions = { isPlatformAccount: boolean; accountOrWalletInfo: Record<string, unknown> }[];
type FundingQuote = Quote & { paymentInstructions: Instructions; source: Record<string, unknown> };
type Transaction = {
  id: string;
  type: string;
  status: string;
  quoteId?: string;
  failureReason?: string;
  receivedAmount?: { amount: number; currency: { code: string } };
  sentAmount?: { amount: number; currency: { code: string } };
  source: Record<string, unknown>;
  refund?: { status: string; reason: string; amount: { amount: number } };
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const as = (auth?: Credentials) => (auth ? { auth } : {});

function funding(to: string, amount: number, source: Record<string, unknown> = {}, extra = {}) {
  return {
    source: { sourceType: "REALTIME_FUNDING", currency: "USD", ...source },
    destination: { destinationType: "ACCOUNT", accountId: to },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: amount,
    ...extra,
  };
}

async function fundingQuote(
  to: string,
  amount: number,
  source = {},
  auth?: Credentials,
): Promise<FundingQuote> {
  const res = await server.client.post<FundingQuote>("/quotes", funding(to, amount, source), as(auth));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const send = (body: Record<string, unknown>, auth?: Credentials) =>
  server.client.post<Transaction>("/sandbox/send", body, as(auth));

/** Event types written for this transaction (payment events carry it as data.id). */
async function paymentEvents(transactionId: string): Promise<string[]> {
  const rows = await server.db.query<{ type: string }>(
    "SELECT type FROM webhook_events WHERE type LIKE '%_PAYMENT.%' AND body LIKE $1 ORDER BY id",
    [`%"id":"${transactionId}"%`],
  );
  return rows.map((row) => row.type);
}

describe("REALTIME_FUNDING quotes: payment instructions, then the money lands when it arrives", () => {
  test("a USD funding quote answers 201 PENDING with the platform's bank account and a reference", async () => {
    const to = await newAccount(server);
    const quote = await fundingQuote(to, 5_000);
    expect(quote.status).toBe("PENDING");
    expect(quote.source).toMatchObject({ sourceType: "REALTIME_FUNDING", currency: "USD" });
    expect(quote.totalSendingAmount).toBe(5_000);
    expect(quote.paymentInstructions).toHaveLength(1);
    const [instructions] = quote.paymentInstructions;
    expect(instructions?.isPlatformAccount).toBe(true);
    expect(instructions?.accountOrWalletInfo).toMatchObject({
      accountType: "USD_ACCOUNT",
      routingNumber: expect.stringMatching(/^[0-9]{9}$/),
      reference: expect.stringMatching(/^PAYSVC-[0-9A-F]{12}$/),
    });
  });

  test("sandbox send of the exact amount: one INCOMING COMPLETED under the quote's transactionId, one balance change, quote COMPLETED", async () => {
    const to = await newAccount(server);
    const quote = await fundingQuote(to, 5_000);
    const res = await send({ quoteId: quote.id, currencyCode: "USD" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: quote.transactionId,
      type: "INCOMING",
      status: "COMPLETED",
      quoteId: quote.id,
    });
    expect(res.body.receivedAmount?.amount).toBe(quote.totalReceivingAmount);
    expect(await balanceOf(server, to)).toBe(quote.totalReceivingAmount);
    const changes = await server.db.query("SELECT amount FROM balance_changes WHERE transaction_id = $1", [
      quote.transactionId,
    ]);
    expect(changes).toEqual([{ amount: quote.totalReceivingAmount }]);
    const after = await server.client.get<Quote>(`/quotes/${quote.id}`);
    expect(after.body.status).toBe("COMPLETED");
    expect(await paymentEvents(quote.transactionId ?? "")).toEqual(["INCOMING_PAYMENT.COMPLETED"]);
  });

  test("sandbox send of another amount: FAILED FUNDING_AMOUNT_MISMATCH, the money sent back, nothing lands, quote FAILED", async () => {
    const to = await newAccount(server);
    const quote = await fundingQuote(to, 5_000);
    const res = await send({ quoteId: quote.id, currencyCode: "USD", currencyAmount: 4_999 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "FAILED", failureReason: "FUNDING_AMOUNT_MISMATCH" });
    expect(res.body.refund).toMatchObject({
      status: "COMPLETED",
      reason: "FUNDING_AMOUNT_MISMATCH",
      amount: { amount: 4_999 },
    });
    expect(await balanceOf(server, to)).toBe(0);
    expect((await server.client.get<Quote>(`/quotes/${quote.id}`)).body.status).toBe("FAILED");
    expect(await paymentEvents(quote.transactionId ?? "")).toEqual(["INCOMING_PAYMENT.FAILED"]);
  });

  test("a second send finds the quote funded -> 409 CONFLICT, and nothing lands twice", async () => {
    const to = await newAccount(server);
    const quote = await fundingQuote(to, 2_000);
    expect((await send({ quoteId: quote.id, currencyCode: "USD" })).status).toBe(200);
    const again = await send({ quoteId: quote.id, currencyCode: "USD" });
    expect(again.status).toBe(409);
    expect((again.body as unknown as ErrorBody).code).toBe("CONFLICT");
    expect(await balanceOf(server, to)).toBe(2_000);
  });

  test("an unpaid quote expires: it reads EXPIRED past expiresAt and a late send -> 400 QUOTE_EXPIRED", async () => {
    const auth = await server.newPlatform();
    const to = await newAccount(server, { auth });
    const quote = await fundingQuote(to, 1_000, {}, auth);
    const later = new Date(Date.parse(quote.expiresAt) + 1_000).toISOString();
    expect((await server.client.post("/sandbox/clock/advance", { to: later }, { auth })).status).toBe(200);
    expect((await server.client.get<Quote>(`/quotes/${quote.id}`, { auth })).body.status).toBe("EXPIRED");
    const late = await send({ quoteId: quote.id, currencyCode: "USD" }, auth);
    expect(late.status).toBe(400);
    expect((late.body as unknown as ErrorBody).code).toBe("QUOTE_EXPIRED");
    expect(await balanceOf(server, to, auth)).toBe(0);
  });

  test("stablecoin funding: USDC on SOLANA gives a deposit address; the USDC lands on a USD account at the pegged rate, with its on-chain transfer", async () => {
    const to = await newAccount(server);
    const quote = await fundingQuote(to, 25_000_000, { currency: "USDC", cryptoNetwork: "SOLANA" });
    expect(quote.sendingCurrency.code).toBe("USDC");
    expect(quote.receivingCurrency.code).toBe("USD");
    expect(quote.totalReceivingAmount).toBe(2_500);
    expect(quote.paymentInstructions[0]?.accountOrWalletInfo).toMatchObject({
      accountType: "SOLANA_WALLET",
      address: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/),
    });
    const res = await send({ quoteId: quote.id, currencyCode: "USDC" });
    expect(res.status).toBe(200);
    expect(res.body.source).toMatchObject({
      sourceType: "REALTIME_FUNDING",
      currency: "USDC",
      onChainTransaction: { network: "SOLANA", transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
    });
    expect(res.body.sentAmount).toMatchObject({ amount: 25_000_000, currency: { code: "USDC" } });
    expect(await balanceOf(server, to)).toBe(2_500);
  });
});

describe("REALTIME_FUNDING quotes: bad input", () => {
  test("every misplaced field is one FieldError in one 400 INVALID_INPUT", async () => {
    const to = await newAccount(server);
    const res = await server.client.post<ErrorBody>(
      "/quotes",
      funding(to, 1_000, { accountId: to, cryptoNetwork: "SOLANA" }, { immediatelyExecute: true }),
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors.map((e) => e.field).sort()).toEqual([
      "immediatelyExecute",
      "source.accountId",
      "source.cryptoNetwork",
    ]);
  });

  test("stablecoin funding without cryptoNetwork -> 400 naming source.cryptoNetwork", async () => {
    const to = await newAccount(server);
    const res = await server.client.post<ErrorBody>("/quotes", funding(to, 1_000, { currency: "USDC" }));
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["source.cryptoNetwork"]);
  });

  test("executing a funding quote -> 409 CONFLICT: it executes when its money arrives", async () => {
    const to = await newAccount(server);
    const quote = await fundingQuote(to, 1_000);
    const res = await server.client.post<ErrorBody>(`/quotes/${quote.id}/execute`, {});
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
  });

  test("send in another currency than the instructions -> 400 naming currencyCode", async () => {
    const to = await newAccount(server);
    const quote = await fundingQuote(to, 1_000);
    const res = await send({ quoteId: quote.id, currencyCode: "EUR" });
    expect(res.status).toBe(400);
    expect((res.body as unknown as ErrorBody).details?.errors.map((e) => e.field)).toEqual(["currencyCode"]);
  });

  test("send for a quote that is not REALTIME_FUNDING -> 400 naming quoteId; unknown or foreign quote -> 404 QUOTE_NOT_FOUND", async () => {
    const from = await newAccount(server);
    const to = await newAccount(server);
    await fund(server, from, 1_000);
    const plain = await server.client.post<Quote>("/quotes", transfer(from, to, 100));
    const notFunding = await send({ quoteId: plain.body.id, currencyCode: "USD" });
    expect(notFunding.status).toBe(400);
    expect((notFunding.body as unknown as ErrorBody).details?.errors.map((e) => e.field)).toEqual([
      "quoteId",
    ]);
    const other = await server.newPlatform();
    const foreign = await send({ quoteId: (await fundingQuote(to, 100)).id, currencyCode: "USD" }, other);
    expect(foreign.status).toBe(404);
    expect((foreign.body as unknown as ErrorBody).code).toBe("QUOTE_NOT_FOUND");
    const unknown = await send({ quoteId: "Quote:not-a-uuid", currencyCode: "USD" });
    expect(unknown.status).toBe(404);
  });

  test("what is not built yet answers 501: funding in EUR", async () => {
    const to = await newAccount(server);
    const eur = await server.client.post<ErrorBody>("/quotes", funding(to, 1_000, { currency: "EUR" }));
    expect(eur.status).toBe(501);
  });
});

describe("realtime-funded payouts: the money arrives, then leaves for a bank account abroad", () => {
  const mxn = corridors.find((c) => c.accountType === "MXN_ACCOUNT") as (typeof corridors)[number];

  /** A fresh platform's customer with an MXN bank account whose CLABE ends in `suffix`. */
  async function beneficiary(suffix = "000") {
    const client = await platformClient(server);
    const customer = await client.post<{ id: string }>("/customers", {
      customerType: "INDIVIDUAL",
      ...withEndUserTerms,
    });
    const external = await client.post<{ id: string }>("/customers/external-accounts", {
      customerId: customer.body.id,
      currency: "MXN",
      accountInfo: accountInfo(mxn, mxn.withSuffix(suffix)),
    });
    expect(external.status).toBe(201);
    return { client, customerId: customer.body.id, externalId: external.body.id };
  }

  const fundedPayout = (customerId: string, externalId: string, amount: number) => ({
    source: { sourceType: "REALTIME_FUNDING", currency: "USD", customerId },
    destination: { destinationType: "ACCOUNT", accountId: externalId },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: amount,
  });

  test("a USD-funded quote to an MXN account is priced over SPEI; once sent, an OUTGOING payout PROCESSING that settles, with no balance change anywhere", async () => {
    const { client, customerId, externalId } = await beneficiary();
    const quote = await client.post<FundingQuote & { paymentRail: string }>(
      "/quotes",
      fundedPayout(customerId, externalId, 10_000),
    );
    expect(quote.status).toBe(201);
    expect(quote.body).toMatchObject({
      status: "PENDING",
      paymentRail: "SPEI",
      receivingCurrency: { code: "MXN" },
    });
    expect(quote.body.paymentInstructions[0]?.accountOrWalletInfo.accountType).toBe("USD_ACCOUNT");
    const sent = await client.post<Transaction & { expectedSettlementAt: string }>("/sandbox/send", {
      quoteId: quote.body.id,
      currencyCode: "USD",
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      type: "OUTGOING",
      status: "PROCESSING",
      source: { sourceType: "REALTIME_FUNDING" },
    });
    await advance(client, sent.body.expectedSettlementAt);
    await server.jobs.runDue();
    expect((await transactionOf(client, quote.body.transactionId as string)).status).toBe("COMPLETED");
    expect(await changesOf(server, quote.body.transactionId as string)).toEqual([]);
    expect(await paymentEvents(quote.body.transactionId as string)).toEqual([
      "OUTGOING_PAYMENT.PROCESSING",
      "OUTGOING_PAYMENT.COMPLETED",
    ]);
  });

  test("a funded payout the bank cannot deliver (004) fails with its refund going back to the funder: no balance change", async () => {
    const { client, customerId, externalId } = await beneficiary("004");
    const quote = (await client.post<FundingQuote>("/quotes", fundedPayout(customerId, externalId, 10_000)))
      .body;
    const sent = await client.post<Transaction & { expectedSettlementAt: string }>("/sandbox/send", {
      quoteId: quote.id,
      currencyCode: "USD",
    });
    await advance(client, sent.body.expectedSettlementAt);
    await server.jobs.runDue();
    const failed = await transactionOf(client, quote.transactionId as string);
    expect(failed).toMatchObject({ status: "FAILED", failureReason: "ACCOUNT_CANNOT_RECEIVE" });
    expect(failed.refund).toMatchObject({ status: "COMPLETED" });
    expect(await changesOf(server, quote.transactionId as string)).toEqual([]);
  });

  test("another amount than the instructions: OUTGOING FAILED FUNDING_AMOUNT_MISMATCH, sent back, nothing paid out", async () => {
    const { client, customerId, externalId } = await beneficiary();
    const quote = (await client.post<FundingQuote>("/quotes", fundedPayout(customerId, externalId, 10_000)))
      .body;
    const res = await client.post<Transaction>("/sandbox/send", {
      quoteId: quote.id,
      currencyCode: "USD",
      currencyAmount: 9_000,
    });
    expect(res.body).toMatchObject({
      type: "OUTGOING",
      status: "FAILED",
      failureReason: "FUNDING_AMOUNT_MISMATCH",
    });
    expect(await paymentEvents(quote.transactionId as string)).toEqual(["OUTGOING_PAYMENT.FAILED"]);
  });

  test("another customer's external account -> 404 ACCOUNT_NOT_FOUND; a wallet -> 501", async () => {
    const { client, externalId } = await beneficiary();
    const other = await client.post<{ id: string }>("/customers", {
      customerType: "INDIVIDUAL",
      ...withEndUserTerms,
    });
    const foreign = await client.post<ErrorBody>("/quotes", fundedPayout(other.body.id, externalId, 1_000));
    expect([foreign.status, foreign.body.code]).toEqual([404, "ACCOUNT_NOT_FOUND"]);
    const wallet = await client.post<{ id: string }>("/customers/external-accounts", {
      customerId: other.body.id,
      currency: "USDC",
      accountInfo: {
        accountType: "SOLANA_WALLET",
        address: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
        vaspName: "Custodian",
      },
    });
    expect(wallet.status).toBe(201);
    const toWallet = await client.post<ErrorBody>(
      "/quotes",
      fundedPayout(other.body.id, wallet.body.id, 1_000),
    );
    expect(toWallet.status).toBe(501);
  });
});
