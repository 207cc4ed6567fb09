import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Credentials, startServer, type TestServer } from "../harness.js";
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

  test("what is not built yet answers 501: realtime-funded payouts to external accounts, funding in EUR", async () => {
    const to = await newAccount(server);
    const eur = await server.client.post<ErrorBody>("/quotes", funding(to, 1_000, { currency: "EUR" }));
    expect(eur.status).toBe(501);
    const payout = await server.client.post<ErrorBody>(
      "/quotes",
      funding("ExternalAccount:019542f5-b3e7-7d02-8000-000000000001", 1_000),
    );
    expect(payout.status).toBe(501);
  });
});
