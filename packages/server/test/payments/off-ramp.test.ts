import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEFAULT_WALLET_VERIFICATION_THRESHOLD } from "../../src/core/deps.js";
import { AgentClient, createAgent, policy, redeem } from "../agents/helpers.js";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { accountInfo, corridors } from "../external-accounts/corridor-examples.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { advance, changesOf, transactionOf } from "../payouts/helpers.js";
import { balanceOf, type ErrorBody } from "../quotes/helpers.js";
import { newKeyPair, stamp } from "../wallet-auth/client.js";
import { type SessionKey, sessionFor, stampOf, walletCustomer } from "../wallet-auth/session-fixture.js";

type Instructions = { instructionsNotes?: string; accountOrWalletInfo: Record<string, unknown> };
type Quote = {
  id: string;
  status: string;
  transactionId: string;
  sendingCurrency: { code: string };
  receivingCurrency: { code: string };
  totalSendingAmount: number;
  totalReceivingAmount: number;
  exchangeRate: number;
  feesIncluded: number;
  paymentRail?: string;
  paymentInstructions?: Instructions[];
};

let server: TestServer;
let client: TestClient;
beforeAll(async () => {
  server = await startServer();
  client = server.client;
});
afterAll(() => server.close());

/** A customer's funded USDB embedded wallet, with an active session key the test holds. */
async function fundedWallet(funds = 50_000_000) {
  const { customerId, accountId } = await walletCustomer(client, withEndUserTerms);
  const funded = await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: funds });
  expect(funded.status, funded.text).toBe(200);
  const key = await sessionFor(server, accountId);
  return { customerId, walletId: accountId, key };
}

/** The customer's USD INTERNAL_FIAT account. */
async function usdAccountOf(customerId: string): Promise<string> {
  const res = await client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${customerId}&currency=USD`,
  );
  return res.body.data[0]?.id as string;
}

async function externalAccount(customerId: string, currency: string, info: Record<string, unknown>) {
  const res = await client.post<{ id: string } & ErrorBody>("/customers/external-accounts", {
    customerId,
    currency,
    ...info,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** A USD bank account; the number's suffix picks the sandbox outcome (000: plain; 002: execution fails). */
const usdBank = (customerId: string, suffix = "000") =>
  externalAccount(customerId, "USD", {
    accountInfo: {
      accountType: "USD_ACCOUNT",
      accountNumber: `1234567${suffix}`,
      routingNumber: "021000021",
      bankAccountType: "CHECKING",
      beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace", countryOfResidence: "US" },
    },
  });

/** A wallet of the customer: custodied (`vaspName`) is ACTIVE; self-custody is PENDING_OWNERSHIP_VERIFICATION. */
const usdcWallet = (customerId: string, currency = "USDC", custodied = true) =>
  externalAccount(customerId, currency, {
    ownershipType: "FIRST_PARTY",
    accountInfo: {
      accountType: "ETHEREUM_WALLET",
      address: `0x${randomBytes(20).toString("hex").slice(0, 37)}abc`,
      ...(custodied ? { vaspName: "Custodian Inc" } : {}),
    },
  });

const quoteBody = (from: string, to: string, amount: number, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: "ACCOUNT", accountId: from },
  destination: { destinationType: "ACCOUNT", accountId: to },
  lockedCurrencySide: "SENDING",
  lockedCurrencyAmount: amount,
  ...extra,
});

async function quote(from: string, to: string, amount: number): Promise<Quote> {
  const res = await client.post<Quote>("/quotes", quoteBody(from, to, amount));
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const payloadOf = (q: Quote) => q.paymentInstructions?.[0]?.accountOrWalletInfo.payloadToSign as string;

const execute = (q: Quote, headers: Record<string, string> = {}) =>
  client.request<Quote & ErrorBody>("POST", `/quotes/${q.id}/execute`, undefined, { headers });

const signed = async (q: Quote, key: SessionKey) =>
  execute(q, { "service-wallet-signature": await stampOf(key, payloadOf(q)) });

const balance = (accountId: string) => balanceOf(server, accountId);

describe("quotes from an EMBEDDED_WALLET answer one paymentInstructions entry with payloadToSign (conventions §3.3)", () => {
  test("to another internal account: 201 PENDING with accountOrWalletInfo {accountType EMBEDDED_WALLET, payloadToSign} naming the wallet and the quote", async () => {
    const { customerId, walletId } = await fundedWallet();
    const usd = await usdAccountOf(customerId);
    const q = await quote(walletId, usd, 2_000_000);
    expect(q.status).toBe("PENDING");
    expect(q.sendingCurrency.code).toBe("USDB");
    expect(q.receivingCurrency.code).toBe("USD");
    expect(q.paymentInstructions).toHaveLength(1);
    const info = q.paymentInstructions?.[0]?.accountOrWalletInfo;
    expect(info).toEqual({ accountType: "EMBEDDED_WALLET", payloadToSign: expect.any(String) });
    expect(JSON.parse(payloadOf(q))).toMatchObject({
      action: "EXECUTE_QUOTE",
      accountId: walletId,
      quoteId: q.id,
      method: "POST",
      path: `/quotes/${q.id}/execute`,
    });
    const read = await client.get<Quote>(`/quotes/${q.id}`);
    expect(read.body.paymentInstructions).toEqual(q.paymentInstructions);
  });

  test("quotes from other accounts carry no paymentInstructions", async () => {
    const { customerId, walletId } = await fundedWallet();
    const usd = await usdAccountOf(customerId);
    await client.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 10_000 });
    const q = await quote(usd, walletId, 1_000);
    expect(q.paymentInstructions).toBeUndefined();
  });

  test("immediatelyExecute stays refused for this source: 400 INVALID_INPUT on immediatelyExecute", async () => {
    const { customerId, walletId } = await fundedWallet();
    const bank = await usdBank(customerId);
    const res = await client.post<ErrorBody>(
      "/quotes",
      quoteBody(walletId, bank, 1_000_000, { immediatelyExecute: true }),
    );
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["immediatelyExecute"]);
  });
});

describe("executing an off-ramp needs Service-Wallet-Signature from an active session of the wallet", () => {
  test("to another internal account: the stamped execute moves the money (no Request-Id needed)", async () => {
    const { customerId, walletId, key } = await fundedWallet(5_000_000);
    const usd = await usdAccountOf(customerId);
    const before = await balance(usd);
    const q = await quote(walletId, usd, 2_000_000);
    const res = await signed(q, key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("COMPLETED");
    expect(await balance(walletId)).toBe(3_000_000);
    expect(await balance(usd)).toBe(before + q.totalReceivingAmount);
  });

  test("to a USD bank account: PROCESSING over a rail, the wallet debited in USDB", async () => {
    const { customerId, walletId, key } = await fundedWallet(5_000_000);
    const bank = await usdBank(customerId);
    const q = await quote(walletId, bank, 2_000_000);
    expect(q.paymentRail).toBeDefined();
    expect(q.receivingCurrency.code).toBe("USD");
    const res = await signed(q, key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("PROCESSING");
    expect(await balance(walletId)).toBe(5_000_000 - q.totalSendingAmount);
    expect(await changesOf(server, q.transactionId)).toEqual([{ amount: -2_000_000, fee: 0 }]);
  });

  test("to a bank account of another corridor (MXN): priced across currencies, executed with the stamp", async () => {
    const corridor = corridors.find((c) => c.accountType === "MXN_ACCOUNT");
    if (!corridor) throw new Error("no MXN corridor example");
    const { customerId, walletId, key } = await fundedWallet(50_000_000);
    const bank = await externalAccount(customerId, "MXN", {
      accountInfo: accountInfo(corridor, corridor.withSuffix("000")),
    });
    const q = await quote(walletId, bank, 10_000_000);
    expect(q.receivingCurrency.code).toBe("MXN");
    expect(q.exchangeRate).not.toBe(1);
    expect(q.paymentInstructions?.[0]?.accountOrWalletInfo.accountType).toBe("EMBEDDED_WALLET");
    const res = await signed(q, key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("PROCESSING");
  });

  test.each(["USDC", "USDT", "USDB"])(
    "to a %s wallet: 1:1 at the peg (exchangeRate 1, no fee), executed with the stamp",
    async (code) => {
      const { customerId, walletId, key } = await fundedWallet(5_000_000);
      const wallet = await usdcWallet(customerId, code);
      const q = await quote(walletId, wallet, 1_234_567);
      expect(q).toMatchObject({
        sendingCurrency: { code: "USDB" },
        receivingCurrency: { code },
        totalSendingAmount: 1_234_567,
        totalReceivingAmount: 1_234_567,
        exchangeRate: 1,
        feesIncluded: 0,
      });
      const res = await signed(q, key);
      expect(res.status, res.text).toBe(200);
      expect(res.body.status).toBe("PROCESSING");
      expect(await balance(walletId)).toBe(5_000_000 - 1_234_567);
    },
  );

  test("no Service-Wallet-Signature -> 401 WALLET_SIGNATURE_MISSING, nothing moves, the quote stays PENDING", async () => {
    const { customerId, walletId } = await fundedWallet(5_000_000);
    const q = await quote(walletId, await usdBank(customerId), 1_000_000);
    const res = await execute(q);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("WALLET_SIGNATURE_MISSING");
    expect(await balance(walletId)).toBe(5_000_000);
    expect((await client.get<Quote>(`/quotes/${q.id}`)).body.status).toBe("PENDING");
  });

  test.each([
    ["not base64url JSON", "%%%"],
    ["JSON without the three fields", Buffer.from('{"publicKey":"02"}').toString("base64url")],
  ])("a stamp that is %s -> 401 WALLET_SIGNATURE_MALFORMED", async (_name, header) => {
    const { customerId, walletId } = await fundedWallet();
    const q = await quote(walletId, await usdBank(customerId), 1_000_000);
    const res = await execute(q, { "service-wallet-signature": header });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("WALLET_SIGNATURE_MALFORMED");
  });

  test("a stamp over another quote's payloadToSign -> 401 WALLET_SIGNATURE_INVALID", async () => {
    const { customerId, walletId, key } = await fundedWallet();
    const bank = await usdBank(customerId);
    const q = await quote(walletId, bank, 1_000_000);
    const other = await quote(walletId, bank, 1_000_000);
    const res = await execute(q, { "service-wallet-signature": await stampOf(key, payloadOf(other)) });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("WALLET_SIGNATURE_INVALID");
  });

  test("a valid stamp by a key that is not a session of this wallet -> 401 WALLET_SIGNATURE_INVALID", async () => {
    const { customerId, walletId } = await fundedWallet();
    const elsewhere = await fundedWallet();
    const q = await quote(walletId, await usdBank(customerId), 1_000_000);
    const byOther = await execute(q, {
      "service-wallet-signature": await stampOf(elsewhere.key, payloadOf(q)),
    });
    expect(byOther.status).toBe(401);
    expect(byOther.body.code).toBe("WALLET_SIGNATURE_INVALID");
    const byStranger = await execute(q, { "service-wallet-signature": stamp(payloadOf(q), newKeyPair()) });
    expect(byStranger.status).toBe(401);
    expect(byStranger.body.code).toBe("WALLET_SIGNATURE_INVALID");
  });

  test("a revoked session's stamp -> 401 WALLET_SIGNATURE_INVALID", async () => {
    const { customerId, walletId, key } = await fundedWallet();
    const q = await quote(walletId, await usdBank(customerId), 1_000_000);
    await server.db.query("UPDATE auth_sessions SET revoked_at = expires_at WHERE id = $1", [key.sessionId]);
    const res = await signed(q, key);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("WALLET_SIGNATURE_INVALID");
  });

  test("a stamped execute of an executed quote -> 409 CONFLICT; the signature is checked before the quote's state", async () => {
    const { customerId, walletId, key } = await fundedWallet(5_000_000);
    const q = await quote(walletId, await usdAccountOf(customerId), 1_000_000);
    expect((await signed(q, key)).status).toBe(200);
    const again = await signed(q, key);
    expect(again.status).toBe(409);
    const unsigned = await execute(q);
    expect(unsigned.status).toBe(401);
  });

  test("a stamped execute above the wallet's balance -> INSUFFICIENT_FUNDS and the quote stays PENDING", async () => {
    const { customerId, walletId, key } = await fundedWallet(1_000_000);
    const q = await quote(walletId, await usdBank(customerId), 2_000_000);
    const res = await signed(q, key);
    expect(res.body.code).toBe("INSUFFICIENT_FUNDS");
    expect((await client.get<Quote>(`/quotes/${q.id}`)).body.status).toBe("PENDING");
  });
});

/** Runs the sandbox clock past the transaction's expected settlement, then the due jobs. */
async function settle(transactionId: string) {
  const txn = await transactionOf(client, transactionId);
  const at = Date.parse((txn.expectedSettlementAt as string | undefined) ?? (txn.createdAt as string));
  await advance(client, new Date(at + 60_000));
  await server.jobs.runDue();
  return transactionOf(client, transactionId);
}

describe("off-ramps settle like any payout", () => {
  test("to a USDC wallet: COMPLETED on chain, receivedAmount in USDC, the wallet debited once", async () => {
    const { customerId, walletId, key } = await fundedWallet(5_000_000);
    const wallet = await usdcWallet(customerId);
    const q = await quote(walletId, wallet, 1_500_000);
    expect((await signed(q, key)).status).toBe(200);
    const txn = await settle(q.transactionId);
    expect(txn.status).toBe("COMPLETED");
    expect(txn.receivedAmount).toMatchObject({ amount: 1_500_000, currency: { code: "USDC" } });
    expect(await balance(walletId)).toBe(3_500_000);
    expect((await client.get<Quote>(`/quotes/${q.id}`)).body.status).toBe("COMPLETED");
  });

  test("to a bank account whose execution fails (sandbox 002): FAILED and the USDB debit refunded to the wallet", async () => {
    const { customerId, walletId, key } = await fundedWallet(5_000_000);
    const q = await quote(walletId, await usdBank(customerId, "002"), 2_000_000);
    expect((await signed(q, key)).status).toBe(200);
    const txn = await settle(q.transactionId);
    expect(txn.status).toBe("FAILED");
    expect(txn.failureReason).toBe("QUOTE_EXECUTION_FAILED");
    expect(await balance(walletId)).toBe(5_000_000);
  });
});

describe("off-ramps around the rules of other areas", () => {
  test("to a wallet still PENDING_OWNERSHIP_VERIFICATION: the regulatory threshold is compared in US cents (units / 10,000), at quote and at execute", async () => {
    const { customerId, walletId, key } = await fundedWallet(DEFAULT_WALLET_VERIFICATION_THRESHOLD * 20_000);
    const wallet = await usdcWallet(customerId, "USDC", false);
    const atThreshold = await quote(walletId, wallet, DEFAULT_WALLET_VERIFICATION_THRESHOLD * 10_000);
    const executed = await signed(atThreshold, key);
    expect(executed.status, executed.text).toBe(200);
    const above = await client.post<ErrorBody>(
      "/quotes",
      quoteBody(walletId, wallet, DEFAULT_WALLET_VERIFICATION_THRESHOLD * 10_000 + 1),
    );
    expect(above.status).toBe(400);
    expect(above.body.code).toBe("EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED");
  });

  test("an agent cannot quote from its customer's EMBEDDED_WALLET (it cannot sign for the wallet): 501 as before", async () => {
    const { customerId, walletId } = await fundedWallet();
    const usd = await usdAccountOf(customerId);
    const agent = await createAgent(
      client,
      customerId,
      policy({ spendingLimits: { currency: "USDB", perTransactionLimit: 10_000_000 } }),
    );
    const redeemed = await redeem(client, agent.deviceCode?.code as string);
    const agentClient = new AgentClient(client, redeemed.body.accessToken);
    const res = await agentClient.post<ErrorBody>("/agents/me/quotes", quoteBody(walletId, usd, 1_000_000));
    expect(res.status, res.text).toBe(501);
    expect(res.body.code).toBe("NOT_IMPLEMENTED");
  });
});
