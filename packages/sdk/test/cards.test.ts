import { createECDH } from "node:crypto";
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from "vitest";
import { startServer, type TestServer } from "../../server/test/harness.js";
import {
  BadRequestError,
  type Card,
  ConflictError,
  NotFoundError,
  PaysvcClient,
  type SimulateAuthorizationBody,
  type SimulatePostingBody,
} from "../src/index.js";

let server: TestServer;
let paysvc: PaysvcClient;
beforeAll(async () => {
  server = await startServer();
  // A tenant of its own whose customers are KYC-approved at create (conventions §2.1 skip-paperwork).
  paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...(await server.newPlatform()) });
  await paysvc.config.update({ sandboxSkipVerificationPaperwork: true });
});
afterAll(() => server.close());

/** A customer (KYC by the `fullName` suffix) and its USD INTERNAL_FIAT account. */
async function cardholder(fullName = "Card Holder 457") {
  const customer = await paysvc.customers.create({ customerType: "INDIVIDUAL", fullName });
  const accounts = await paysvc.internalAccounts.listForCustomers({
    customerId: customer.id,
    currency: "USD",
    type: "INTERNAL_FIAT",
  });
  const account = accounts.data[0];
  if (!account) throw new Error(`customer ${customer.id} has no USD account`);
  return { customerId: customer.id, accountId: account.id };
}

/** Issues a card and runs the sandbox issuer's answer (conventions §6.5: ACTIVE within about 1 s). */
async function activeCard(holder: { customerId: string; accountId: string }): Promise<Card> {
  const card = await paysvc.cards.create({
    cardholderId: holder.customerId,
    form: "VIRTUAL",
    fundingSources: [holder.accountId],
  });
  await server.jobs.runDue();
  return paysvc.cards.get(card.id);
}

const MISSING_CARD = "Card:0199a0a0-0000-7000-8000-0000000000f1";

describe("cards through the SDK", () => {
  test("create answers 201 with a PROCESSING card; the sandbox issuer makes it ACTIVE", async () => {
    const holder = await cardholder();
    const card = await paysvc.cards.create({
      cardholderId: holder.customerId,
      form: "VIRTUAL",
      fundingSources: [holder.accountId],
      platformCardId: "sdk-card-457",
      maxSpendPerTransaction: 50_000,
    });
    expect(card.lastResponse).toEqual({ requestId: expect.stringMatching(/^req_/), status: 201 });
    expect(card).toMatchObject({
      cardholderId: holder.customerId,
      platformCardId: "sdk-card-457",
      status: "PROCESSING",
      statusReason: null,
      pinStatus: "NOT_SET",
      form: "VIRTUAL",
      fundingSources: [holder.accountId],
      maxSpendPerTransaction: 50_000,
      currency: "USD",
    });
    expect(card.id).toMatch(/^Card:[0-9a-f-]{36}$/);

    await server.jobs.runDue();
    const active = await paysvc.cards.get(card.id);
    expect(active.status).toBe("ACTIVE");
    expect(active.lastResponse.status).toBe(200);
    expect({ ...active, status: card.status, updatedAt: card.updatedAt }).toEqual({ ...card });
  });

  test("a create repeated with the same idempotency key is the same card, not a second one", async () => {
    const holder = await cardholder();
    const body = {
      cardholderId: holder.customerId,
      form: "VIRTUAL" as const,
      fundingSources: [holder.accountId],
    };
    const first = await paysvc.cards.create(body, { idempotencyKey: `card-${holder.customerId}` });
    const again = await paysvc.cards.create(body, { idempotencyKey: `card-${holder.customerId}` });
    expect(again).toEqual(first);
    const page = await paysvc.cards.list({ cardholderId: holder.customerId });
    expect(page.data.map((c) => c.id)).toEqual([first.id]);
  });

  test("list filters by cardholder, status and platformCardId; listAll follows the cursor", async () => {
    const holder = await cardholder();
    const other = await cardholder();
    const card = await activeCard(holder);
    const otherCard = await activeCard(other);

    const mine = await paysvc.cards.list({ cardholderId: holder.customerId });
    expect(mine).toMatchObject({ hasMore: false, totalCount: 1 });
    expect(mine.data).toEqual([card]);
    const byAccount = await paysvc.cards.list({ accountId: other.accountId });
    expect(byAccount.data.map((c) => c.id)).toEqual([otherCard.id]);
    const byRef = await paysvc.cards.list({ platformCardId: card.platformCardId });
    expect(byRef.data.map((c) => c.id)).toEqual([card.id]);

    const all: string[] = [];
    for await (const c of paysvc.cards.listAll({ status: "ACTIVE", limit: 1, sortOrder: "asc" }))
      all.push(c.id);
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(new Set(all).size).toBe(all.length);
    expect(all.indexOf(card.id)).toBeLessThan(all.indexOf(otherCard.id));
  });

  test("update freezes and unfreezes, changes the cap, and closes with CLOSED_BY_PLATFORM", async () => {
    const card = await activeCard(await cardholder());
    const frozen = await paysvc.cards.update(card.id, { status: "FROZEN" });
    expect(frozen).toMatchObject({ id: card.id, status: "FROZEN", statusReason: null });
    expect(frozen.lastResponse.status).toBe(200);
    expect((await paysvc.cards.get(card.id)).status).toBe("FROZEN");

    const thawed = await paysvc.cards.update(card.id, { status: "ACTIVE", maxSpendPerTransaction: 2_500 });
    expect(thawed).toMatchObject({ status: "ACTIVE", maxSpendPerTransaction: 2_500 });
    const uncapped = await paysvc.cards.update(card.id, { maxSpendPerTransaction: null });
    expect(uncapped.maxSpendPerTransaction).toBeNull();

    const closed = await paysvc.cards.update(card.id, { status: "CLOSED" });
    expect(closed).toMatchObject({ status: "CLOSED", statusReason: "CLOSED_BY_PLATFORM" });
  });

  test("a closed card is not mutable: ConflictError CARD_NOT_MUTABLE (409), and CLOSED again is CARD_ALREADY_CLOSED", async () => {
    const card = await activeCard(await cardholder());
    await paysvc.cards.update(card.id, { status: "CLOSED" });

    const error = await paysvc.cards.update(card.id, { status: "FROZEN" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      code: "CARD_NOT_MUTABLE",
      status: 409,
      requestId: expect.stringMatching(/^req_/),
    });
    await expect(paysvc.cards.update(card.id, { maxSpendPerTransaction: 100 })).rejects.toMatchObject({
      constructor: ConflictError,
      code: "CARD_NOT_MUTABLE",
    });
    await expect(paysvc.cards.update(card.id, { status: "CLOSED" })).rejects.toMatchObject({
      constructor: ConflictError,
      code: "CARD_ALREADY_CLOSED",
    });
    expect((await paysvc.cards.get(card.id)).status).toBe("CLOSED");
  });

  test("a transition outside the table is ConflictError INVALID_STATE_TRANSITION", async () => {
    const card = await activeCard(await cardholder());
    await expect(paysvc.cards.update(card.id, { status: "ACTIVE" })).rejects.toMatchObject({
      constructor: ConflictError,
      code: "INVALID_STATE_TRANSITION",
    });
  });

  test.each([
    ["an unknown card", MISSING_CARD],
    ["a malformed id", "Card:not-a-uuid"],
    ["another type's id", "Customer:0199a0a0-0000-7000-8000-0000000000f1"],
  ])("%s is NotFoundError NOT_FOUND (404) on get, update and reveal", async (_name, id) => {
    const error = await paysvc.cards.get(id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      code: "NOT_FOUND",
      status: 404,
      requestId: expect.stringMatching(/^req_/),
    });
    await expect(paysvc.cards.update(id, { status: "FROZEN" })).rejects.toMatchObject({
      constructor: NotFoundError,
      code: "NOT_FOUND",
    });
    await expect(paysvc.cards.reveal(id)).rejects.toMatchObject({
      constructor: NotFoundError,
      code: "NOT_FOUND",
    });
  });

  test("a cardholder whose KYC is not APPROVED gets BadRequestError CARDHOLDER_KYC_NOT_APPROVED", async () => {
    const pending = await cardholder("Pending Person 001");
    await expect(
      paysvc.cards.create({
        cardholderId: pending.customerId,
        form: "VIRTUAL",
        fundingSources: [pending.accountId],
      }),
    ).rejects.toMatchObject({
      constructor: BadRequestError,
      code: "CARDHOLDER_KYC_NOT_APPROVED",
      status: 400,
    });
  });

  test("invalid input is BadRequestError INVALID_INPUT with one field error per field", async () => {
    const holder = await cardholder();
    const error = await paysvc.cards
      .create({
        cardholderId: holder.customerId,
        form: "VIRTUAL",
        fundingSources: [],
        maxSpendPerTransaction: 0,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ code: "INVALID_INPUT" });
    const fields = (error as BadRequestError).fieldErrors.map((f) => f.field).sort();
    expect(fields).toEqual(["fundingSources", "maxSpendPerTransaction"]);
  });
});

describe("PIN, reveal and tokenize through the SDK", () => {
  test("setPin makes pinStatus OK and never returns the PIN; three wrong attempts block it", async () => {
    const card = await activeCard(await cardholder());
    const updated = await paysvc.cards.setPin(card.id, "0457");
    expect(updated).toMatchObject({ id: card.id, pinStatus: "OK" });
    expect(JSON.stringify(updated)).not.toContain("0457");

    expect(await paysvc.sandbox.pinAttempt(card.id, "0457")).toMatchObject({
      correct: true,
      pinStatus: "OK",
    });
    expect(await paysvc.sandbox.pinAttempt(card.id, "1111")).toEqual({
      correct: false,
      pinStatus: "OK",
      remainingAttempts: 2,
    });
    await paysvc.sandbox.pinAttempt(card.id, "1111");
    expect(await paysvc.sandbox.pinAttempt(card.id, "1111")).toEqual({
      correct: false,
      pinStatus: "BLOCKED",
      remainingAttempts: 0,
    });
    expect((await paysvc.cards.get(card.id)).pinStatus).toBe("BLOCKED");
  });

  test("a PIN that is not 4 to 6 digits is BadRequestError INVALID_INPUT on pin", async () => {
    const card = await activeCard(await cardholder());
    const error = await paysvc.cards.setPin(card.id, "12a4").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).fieldErrors.map((f) => f.field)).toEqual(["pin"]);
  });

  test("reveal (sent with no body) gives a single-use panEmbedUrl that expires 5 minutes after issue", async () => {
    const card = await activeCard(await cardholder());
    const link = await paysvc.cards.reveal(card.id);
    expect(link.lastResponse.status).toBe(200);
    expect(link.panEmbedUrl).toMatch(/^https?:\/\//);
    const now = Date.parse((await paysvc.sandbox.getClock()).now);
    const ttl = Date.parse(link.expiresAt) - now;
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
    const second = await paysvc.cards.reveal(card.id);
    expect(second.panEmbedUrl).not.toBe(link.panEmbedUrl);
  });

  test("a closed card does not reveal: ConflictError CONFLICT", async () => {
    const card = await activeCard(await cardholder());
    await paysvc.cards.update(card.id, { status: "CLOSED" });
    await expect(paysvc.cards.reveal(card.id)).rejects.toMatchObject({
      constructor: ConflictError,
      code: "CONFLICT",
    });
  });

  test("tokenize returns the encrypted provisioning payload for the wallet", async () => {
    const card = await activeCard(await cardholder());
    const walletPublicKey = createECDH("prime256v1").generateKeys("hex", "uncompressed");
    const result = await paysvc.cards.tokenize(card.id, {
      walletProvider: "APPLE_PAY",
      deviceId: "device-457",
      walletPublicKey,
    });
    expect(result).toEqual({
      walletProvider: "APPLE_PAY",
      activationData: expect.any(String),
      encryptedPassData: expect.stringMatching(/^[0-9a-f]+$/i),
      ephemeralPublicKey: expect.stringMatching(/^04[0-9a-f]{128}$/i),
    });
  });
});

describe("sandbox card simulations through the SDK", () => {
  test("simulateCard's body type follows the op", () => {
    type Op = Parameters<typeof paysvc.sandbox.simulateCard>[1];
    type Body<O extends Op> = Parameters<typeof paysvc.sandbox.simulateCard<O>>[2];
    expectTypeOf<Body<"authorization">>().toEqualTypeOf<SimulateAuthorizationBody>();
    expectTypeOf<Body<"clearing">>().toEqualTypeOf<SimulatePostingBody>();
    expectTypeOf<Body<"return_reversal">>().toEqualTypeOf<{ cardTransactionId: string }>();
    expectTypeOf<Body<"balance_inquiry">>().toHaveProperty("merchant");
  });

  test("an authorization answers 202 with the row, readable as a CARD transaction", async () => {
    const holder = await cardholder();
    const card = await activeCard(holder);
    await paysvc.sandbox.fund(holder.accountId, 10_000);
    const auth = await paysvc.sandbox.simulateCard(card.id, "authorization", {
      amount: 1_200,
      currency: { code: "USD" },
      merchant: { descriptor: "Corner Cafe", mcc: "5814", country: "US", city: "Austin", state: "TX" },
    });
    expect(auth.lastResponse.status).toBe(202);
    expect(auth.cardTransactionId).toMatch(/^CardTransaction:/);
    const row = await paysvc.transactions.get(auth.cardTransactionId);
    expect(row).toMatchObject({
      type: "CARD",
      cardId: card.id,
      accountId: holder.accountId,
      status: "AUTHORIZED",
      direction: "DEBIT",
      issuerTransactionToken: auth.issuerTransactionToken,
      authorizedAmount: { amount: 1_200, currency: { code: "USD" } },
    });
    const account = await paysvc.internalAccounts.get(holder.accountId);
    expect(account.balance.amount).toBe(10_000 - 1_200);
    expect(account.totalBalance.amount).toBe(10_000);
  });

  test("a clearing of an unknown row is NotFoundError TRANSACTION_NOT_FOUND; of a settled row ConflictError", async () => {
    const holder = await cardholder();
    const card = await activeCard(holder);
    await paysvc.sandbox.fund(holder.accountId, 10_000);
    await expect(
      paysvc.sandbox.simulateCard(card.id, "clearing", {
        cardTransactionId: "CardTransaction:0199a0a0-0000-7000-8000-0000000000f1",
        amount: 100,
      }),
    ).rejects.toMatchObject({ constructor: NotFoundError, code: "TRANSACTION_NOT_FOUND" });
    const sale = await paysvc.sandbox.simulateCard(card.id, "financial_authorization", {
      amount: 300,
      currency: { code: "USD" },
      merchant: { descriptor: "Kiosk" },
    });
    await expect(
      paysvc.sandbox.simulateCard(card.id, "clearing", {
        cardTransactionId: sale.cardTransactionId,
        amount: 1,
      }),
    ).rejects.toMatchObject({ constructor: ConflictError, code: "CONFLICT" });
  });
});
