import { randomBytes } from "node:crypto";
import { isSEPACountry, validateIBAN } from "ibantools";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEFAULT_WALLET_VERIFICATION_THRESHOLD } from "../../src/core/deps.js";
import { currencyCodes } from "../../src/core/money.js";
import { corridorFor, corridors as corridorTable } from "../../src/rails/corridors.js";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { accountInfo, corridors } from "../external-accounts/corridor-examples.js";
import { type Credentials, startServer, type TestServer } from "../harness.js";
import { advance, changesOf, platformClient, transactionOf } from "../payouts/helpers.js";
import { balanceOf, type ErrorBody, fund, newAccount, type Quote, transfer } from "../quotes/helpers.js";
import { crc16, fundingAccountProblems, hostedCurrencies } from "./funding-account-checks.js";

type Instructions = {
  instructionsNotes?: string;
  isPlatformAccount: boolean;
  accountOrWalletInfo: Record<string, unknown>;
}[];
type FundingQuote = Quote & {
  paymentInstructions: Instructions;
  source: Record<string, unknown>;
  sendingCurrency: { code: string; decimals: number };
};
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

  test("an EUR funding quote to a USD account answers 201 with a SEPA IBAN instruction whose IBAN has valid check digits, and a reference", async () => {
    const to = await newAccount(server);
    const quote = await fundingQuote(to, 5_000, { currency: "EUR" });
    expect(quote).toMatchObject({
      status: "PENDING",
      sendingCurrency: { code: "EUR" },
      receivingCurrency: { code: "USD" },
      totalSendingAmount: 5_000,
    });
    // The sandbox's cached EUR→USD rate: 1/0.92 moved by at most ±0.50 %, the amount rounded down. The
    // wire rate has 10 significant digits, so a move of exactly 0.50 % can read 1e-9 past it.
    expect(Math.abs(quote.exchangeRate * 0.92 - 1)).toBeLessThanOrEqual(0.005 + 1e-9);
    const exact = 5_000 * quote.exchangeRate;
    expect(quote.totalReceivingAmount).toBeLessThanOrEqual(exact + 1e-6);
    expect(quote.totalReceivingAmount).toBeGreaterThan(exact - 1);
    const [instructions] = quote.paymentInstructions;
    const info = instructions?.accountOrWalletInfo ?? {};
    expect(info).toMatchObject({
      accountType: "EUR_ACCOUNT",
      paymentRails: ["SEPA_INSTANT", "SEPA"],
      reference: expect.stringMatching(/^PAYSVC-[0-9A-F]{12}$/),
    });
    const iban = String(info.iban);
    expect(validateIBAN(iban)).toEqual({ valid: true, errorCodes: [] });
    expect(isSEPACountry(iban.slice(0, 2))).toBe(true);
    expect(instructions?.instructionsNotes).toBe(
      `Send exactly 50.00 EUR, quoting reference ${info.reference}.`,
    );
  });

  test("sandbox send of the EUR amount lands the converted USD on the account: one balance change", async () => {
    const to = await newAccount(server);
    const quote = await fundingQuote(to, 5_000, { currency: "EUR" });
    const inUsd = await send({ quoteId: quote.id, currencyCode: "USD" });
    expect((inUsd.body as unknown as ErrorBody).details?.errors.map((e) => e.field)).toEqual([
      "currencyCode",
    ]);
    const res = await send({ quoteId: quote.id, currencyCode: "EUR" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: quote.transactionId,
      type: "INCOMING",
      status: "COMPLETED",
      sentAmount: { amount: 5_000, currency: { code: "EUR" } },
      receivedAmount: { amount: quote.totalReceivingAmount, currency: { code: "USD" } },
    });
    expect(await balanceOf(server, to)).toBe(quote.totalReceivingAmount);
    expect(await changesOf(server, quote.transactionId as string)).toEqual([
      { amount: quote.totalReceivingAmount, fee: 0 },
    ]);
    expect((await server.client.get<Quote>(`/quotes/${quote.id}`)).body.status).toBe("COMPLETED");
  });

  test("every corridor currency's funding instructions follow the hosted Payment<Ccy>AccountInfo shape, with values that pass real checks", async () => {
    expect(crc16("123456789")).toBe("29B1"); // the CRC-16/CCITT-FALSE check value: the test's own CRC is right
    expect(corridorTable.map((c) => c.currency).sort()).toEqual([...hostedCurrencies].sort());
    const to = await newAccount(server);
    const problems: Record<string, string[]> = {};
    for (const { currency } of corridorTable) {
      const quote = await fundingQuote(to, 100_000, { currency });
      const [instructions] = quote.paymentInstructions;
      const notes = instructions?.instructionsNotes ?? "";
      const reference = /quoting reference (PAYSVC-[0-9A-F]{12})\.$/.exec(notes)?.[1] ?? "";
      const funding = { amount: quote.totalSendingAmount, reference };
      const found = fundingAccountProblems(currency, instructions?.accountOrWalletInfo ?? {}, funding);
      const { decimals } = quote.sendingCurrency;
      const major = (quote.totalSendingAmount / 10 ** decimals).toFixed(decimals);
      if (!notes.startsWith(`Send exactly ${major} ${currency}, `)) found.push(`notes: ${notes}`);
      if (instructions?.isPlatformAccount !== true) found.push("isPlatformAccount is not true");
      if (found.length > 0) problems[currency] = found;
    }
    expect(problems).toEqual({});
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

  test("funding in a currency with no corridor (BTC, with no network) -> 501 NOT_IMPLEMENTED; an unknown code (ISK) -> 400 INVALID_CURRENCY", async () => {
    const to = await newAccount(server);
    const onChain = new Set(["USDC", "USDT", "USDB"]);
    const noCorridor = currencyCodes.filter((code) => !corridorFor(code) && !onChain.has(code));
    expect(noCorridor).toContain("BTC");
    for (const currency of noCorridor) {
      const res = await server.client.post<ErrorBody>("/quotes", funding(to, 1_000, { currency }));
      expect([res.status, res.body.code], currency).toEqual([501, "NOT_IMPLEMENTED"]);
    }
    const isk = await server.client.post<ErrorBody>("/quotes", funding(to, 1_000, { currency: "ISK" }));
    expect([isk.status, isk.body.code]).toEqual([400, "INVALID_CURRENCY"]);
  });
});

describe("realtime-funded payouts: the money arrives, then leaves for a bank account abroad", () => {
  const example = (type: string) =>
    corridors.find((c) => c.accountType === type) as (typeof corridors)[number];
  const mxn = example("MXN_ACCOUNT");

  /** A fresh platform's customer with a bank account (MXN by default) whose number ends in `suffix`. */
  async function beneficiary(suffix = "000", corridor = mxn) {
    const client = await platformClient(server);
    const customer = await client.post<{ id: string }>("/customers", {
      customerType: "INDIVIDUAL",
      ...withEndUserTerms,
    });
    const external = await client.post<{ id: string }>("/customers/external-accounts", {
      customerId: customer.body.id,
      currency: corridor.currency,
      accountInfo: accountInfo(corridor, corridor.withSuffix(suffix)),
    });
    expect(external.status).toBe(201);
    return { client, customerId: customer.body.id, externalId: external.body.id };
  }

  const fundedPayout = (customerId: string, externalId: string, amount: number, currency = "USD") => ({
    source: { sourceType: "REALTIME_FUNDING", currency, customerId },
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

  test("an EUR-funded quote to an EUR bank account is priced over SEPA_INSTANT at exchangeRate 1 with the platform's IBAN; once sent it settles, with no balance change", async () => {
    const { client, customerId, externalId } = await beneficiary("000", example("EUR_ACCOUNT"));
    const quote = await client.post<FundingQuote & { paymentRail: string }>(
      "/quotes",
      fundedPayout(customerId, externalId, 10_000, "EUR"),
    );
    expect(quote.status).toBe(201);
    expect(quote.body).toMatchObject({
      paymentRail: "SEPA_INSTANT",
      exchangeRate: 1,
      sendingCurrency: { code: "EUR" },
      receivingCurrency: { code: "EUR" },
    });
    const info = quote.body.paymentInstructions[0]?.accountOrWalletInfo ?? {};
    expect(info.accountType).toBe("EUR_ACCOUNT");
    expect(validateIBAN(String(info.iban)).valid).toBe(true);
    const sent = await client.post<Transaction & { expectedSettlementAt: string }>("/sandbox/send", {
      quoteId: quote.body.id,
      currencyCode: "EUR",
    });
    expect(sent.body).toMatchObject({ type: "OUTGOING", status: "PROCESSING", paymentRail: "SEPA_INSTANT" });
    await advance(client, sent.body.expectedSettlementAt);
    await server.jobs.runDue();
    expect((await transactionOf(client, quote.body.transactionId as string)).status).toBe("COMPLETED");
    expect(await changesOf(server, quote.body.transactionId as string)).toEqual([]);
  });

  test("another customer's external account -> 404 ACCOUNT_NOT_FOUND; a BTC wallet -> 501 (no BTC pricing)", async () => {
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
    expect(toWallet.status).toBe(201);
    const btc = await client.post<{ id: string }>("/customers/external-accounts", {
      customerId: other.body.id,
      currency: "BTC",
      accountInfo: {
        accountType: "BITCOIN_WALLET",
        address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        vaspName: "Custodian",
      },
    });
    expect(btc.status).toBe(201);
    const toBtc = await client.post<ErrorBody>("/quotes", fundedPayout(other.body.id, btc.body.id, 1_000));
    expect([toBtc.status, toBtc.body.code]).toEqual([501, "NOT_IMPLEMENTED"]);
    expect(toBtc.body.reason).toMatch(/no BTC pricing/);
  });
});

describe("realtime-funded payouts to stablecoin wallets: the money arrives, then leaves on chain", () => {
  /** One US cent in a 6-decimal stablecoin's minor units. */
  const PER_CENT = 10_000;
  const THRESHOLD = DEFAULT_WALLET_VERIFICATION_THRESHOLD;

  /**
   * A fresh platform's customer with a USDC BASE wallet whose address ends in `suffix` (§3.6 outcomes):
   * custodied (`vaspName`) it is ACTIVE; self-custody it is PENDING_OWNERSHIP_VERIFICATION.
   */
  async function walletHolder(options: { suffix?: string; custodied?: boolean } = {}) {
    const client = await platformClient(server);
    const customer = await client.post<{ id: string }>("/customers", {
      customerType: "INDIVIDUAL",
      ...withEndUserTerms,
    });
    const suffix = options.suffix ?? "abc";
    const address = `0x${randomBytes(20)
      .toString("hex")
      .slice(0, 40 - suffix.length)}${suffix}`;
    const wallet = await client.post<{ id: string; status: string }>("/customers/external-accounts", {
      customerId: customer.body.id,
      currency: "USDC",
      ownershipType: "FIRST_PARTY",
      accountInfo: {
        accountType: "BASE_WALLET",
        address,
        ...(options.custodied === false ? {} : { vaspName: "Custodian" }),
      },
    });
    expect(wallet.status).toBe(201);
    return {
      client,
      customerId: customer.body.id,
      walletId: wallet.body.id,
      walletStatus: wallet.body.status,
    };
  }

  const toWallet = (customerId: string, walletId: string, amount: number, currency = "USD") => ({
    source: { sourceType: "REALTIME_FUNDING", currency, customerId },
    destination: { destinationType: "ACCOUNT", accountId: walletId },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: amount,
  });

  test("a USD-funded quote to a USDC BASE wallet is priced at the peg (201, no rail); once sent, an OUTGOING payout that settles on chain, with no balance change", async () => {
    const { client, customerId, walletId } = await walletHolder();
    const quote = await client.post<FundingQuote>("/quotes", toWallet(customerId, walletId, 10_000));
    expect(quote.status).toBe(201);
    expect(quote.body).toMatchObject({
      status: "PENDING",
      sendingCurrency: { code: "USD" },
      receivingCurrency: { code: "USDC" },
      totalSendingAmount: 10_000,
      totalReceivingAmount: 10_000 * PER_CENT,
      exchangeRate: 1,
      feesIncluded: 0,
    });
    expect(quote.body).not.toHaveProperty("paymentRail");
    expect(quote.body.paymentInstructions[0]?.accountOrWalletInfo.accountType).toBe("USD_ACCOUNT");
    const transactionId = quote.body.transactionId as string;
    const sent = await client.post<Transaction & { expectedSettlementAt: string }>("/sandbox/send", {
      quoteId: quote.body.id,
      currencyCode: "USD",
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      id: transactionId,
      type: "OUTGOING",
      status: "PROCESSING",
      source: { sourceType: "REALTIME_FUNDING", currency: "USD" },
      destination: { destinationType: "ACCOUNT", accountId: walletId },
      sentAmount: { amount: 10_000, currency: { code: "USD" } },
      receivedAmount: { amount: 10_000 * PER_CENT, currency: { code: "USDC" } },
    });
    expect(sent.body).not.toHaveProperty("paymentRail");
    await advance(client, sent.body.expectedSettlementAt);
    await server.jobs.runDue();
    const settled = await transactionOf(client, transactionId);
    expect(settled.status).toBe("COMPLETED");
    expect(settled.destination).toMatchObject({
      onChainTransaction: { network: "BASE", transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
    });
    expect(await changesOf(server, transactionId)).toEqual([]);
    expect(await paymentEvents(transactionId)).toEqual([
      "OUTGOING_PAYMENT.PROCESSING",
      "OUTGOING_PAYMENT.COMPLETED",
    ]);
    expect((await client.get<Quote>(`/quotes/${quote.body.id}`)).body.status).toBe("COMPLETED");
  });

  test("an EUR-funded quote to a USDC wallet converts at the cached EUR→USDC rate into 6-decimal units", async () => {
    const { client, customerId, walletId } = await walletHolder();
    const quote = await client.post<FundingQuote>("/quotes", toWallet(customerId, walletId, 5_000, "EUR"));
    expect(quote.status).toBe(201);
    expect(quote.body.paymentInstructions[0]?.accountOrWalletInfo.accountType).toBe("EUR_ACCOUNT");
    expect(Math.abs(quote.body.exchangeRate * 0.92 - 1)).toBeLessThanOrEqual(0.005 + 1e-9);
    const exact = 5_000 * quote.body.exchangeRate * PER_CENT;
    expect(quote.body.totalReceivingAmount).toBeLessThanOrEqual(exact + 1e-3);
    expect(quote.body.totalReceivingAmount).toBeGreaterThan(exact - 1);
  });

  test("a self-custody wallet (PENDING_OWNERSHIP_VERIFICATION) is payable up to the regulatory threshold; above it -> 400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED", async () => {
    const { client, customerId, walletId, walletStatus } = await walletHolder({ custodied: false });
    expect(walletStatus).toBe("PENDING_OWNERSHIP_VERIFICATION");
    const at = await client.post<FundingQuote>("/quotes", toWallet(customerId, walletId, THRESHOLD));
    expect(at.status).toBe(201);
    const over = await client.post<ErrorBody>("/quotes", toWallet(customerId, walletId, THRESHOLD + 1));
    expect([over.status, over.body.code]).toEqual([400, "EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED"]);
  });

  test("a funded wallet payout the sandbox fails (address ending 002) is refunded to the funder: FAILED, no on-chain transfer, no balance change", async () => {
    const { client, customerId, walletId } = await walletHolder({ suffix: "002" });
    const quote = (await client.post<FundingQuote>("/quotes", toWallet(customerId, walletId, 2_000))).body;
    const sent = await client.post<Transaction>("/sandbox/send", { quoteId: quote.id, currencyCode: "USD" });
    expect(sent.body.status).toBe("PROCESSING");
    await server.jobs.runDue();
    const failed = await transactionOf(client, quote.transactionId as string);
    expect(failed).toMatchObject({ status: "FAILED", failureReason: "QUOTE_EXECUTION_FAILED" });
    expect(failed.refund).toMatchObject({ status: "COMPLETED", amount: { amount: 2_000 } });
    expect(failed.destination).not.toHaveProperty("onChainTransaction");
    expect(await changesOf(server, quote.transactionId as string)).toEqual([]);
  });
});
