import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { cardPlatform, eventsOf } from "./helpers.js";
import {
  advance,
  authorize,
  balances,
  cardChangesOf,
  cardTransaction,
  clear,
  eventTrail,
  fundedCard,
  opening,
  SHOP,
  setCardStatus,
  simulate,
  simulateOk,
  USD,
  usd,
} from "./transaction-helpers.js";

// Interface "States and transitions → Card transaction" and "Events" rules 3-4; conventions §6.3-§6.5.
const DAY = 86_400_000;

let server: TestServer;
let client: TestClient;
let platformId: string;
beforeAll(async () => {
  server = await startServer();
  const setup = await cardPlatform(server);
  client = setup.client;
  platformId = setup.platform.platformId;
});
afterAll(() => server.close());

/** A cardholder funded with `funds` and an ACTIVE card on its account, on the shared platform. */
const newCard = (funds = 10_000, extra: Record<string, unknown> = {}) =>
  fundedCard(server, client, funds, extra);
const trail = (rowId: string) => eventTrail(server, platformId, rowId);

describe("card transaction state table (interface)", () => {
  test("approved authorization -> AUTHORIZED with a hold: balance drops, totalBalance does not, no balance change", async () => {
    const { holder, cardId } = await newCard();
    const id = await authorize(client, cardId, 2_500);
    const row = await cardTransaction(client, id);
    expect(row).toMatchObject({
      id,
      type: "CARD",
      cardId,
      accountId: holder.accountId,
      customerId: holder.customerId,
      status: "AUTHORIZED",
      direction: "DEBIT",
      authorizedAmount: usd(2_500),
      pullSummary: { count: 1, totalAmount: 2_500 },
      settlementSummary: { count: 0, totalAmount: 0 },
      refundSummary: { count: 0, totalAmount: 0 },
    });
    expect(row.id).toMatch(/^CardTransaction:[0-9a-f-]{36}$/);
    expect(row.createdAt).toBe(row.authorizedAt);
    expect(row).not.toHaveProperty("settledAmount");
    expect(row).not.toHaveProperty("refundedAmount");
    expect(row).not.toHaveProperty("cardDeclinedReason");
    expect(await balances(client, holder.accountId)).toEqual({ balance: 7_500, totalBalance: 10_000 });
    expect(await cardChangesOf(server, holder.accountId)).toEqual([]);
    expect(await trail(id)).toEqual(["CARD_TRANSACTION.AUTHORIZED AUTHORIZED"]);
  });

  test("approved authorization + partial clearing -> PARTIALLY_SETTLED with settledAmount and one -amount change (fee 0, transactionId = the row)", async () => {
    const { holder, cardId } = await newCard();
    const id = await authorize(client, cardId, 2_500);
    expect(await clear(client, cardId, id, 1_000)).toBe(id);
    const row = await cardTransaction(client, id);
    expect(row).toMatchObject({
      status: "PARTIALLY_SETTLED",
      settledAmount: usd(1_000),
      settlementSummary: { count: 1, totalAmount: 1_000 },
    });
    expect(
      (await cardChangesOf(server, holder.accountId)).map((c) => [c.amount, c.fee, c.transaction_id]),
    ).toEqual([[-1_000, 0, id]]);
    // The hold shrinks by the cleared amount: 1,500 of the 2,500 is still held.
    expect(await balances(client, holder.accountId)).toEqual({ balance: 7_500, totalBalance: 9_000 });
    expect(await trail(id)).toEqual([
      "CARD_TRANSACTION.AUTHORIZED AUTHORIZED",
      "CARD_TRANSACTION.PARTIALLY_SETTLED PARTIALLY_SETTLED",
    ]);
  });

  test("approved authorization + clearing of the full amount -> SETTLED, hold gone", async () => {
    const { holder, cardId } = await newCard();
    const id = await authorize(client, cardId, 2_500);
    await clear(client, cardId, id, 2_500);
    expect(await cardTransaction(client, id)).toMatchObject({ status: "SETTLED", settledAmount: usd(2_500) });
    expect(await balances(client, holder.accountId)).toEqual({ balance: 7_500, totalBalance: 7_500 });
    expect(await trail(id)).toEqual([
      "CARD_TRANSACTION.AUTHORIZED AUTHORIZED",
      "CARD_TRANSACTION.SETTLED SETTLED",
    ]);
  });

  test("PARTIALLY_SETTLED + clearing reaching the authorized amount -> SETTLED; a purchase cleared in two parts is two changes (balance-change rule 1)", async () => {
    const { holder, cardId } = await newCard();
    const id = await authorize(client, cardId, 2_500);
    await clear(client, cardId, id, 1_000);
    await clear(client, cardId, id, 1_500);
    expect(await cardTransaction(client, id)).toMatchObject({
      status: "SETTLED",
      settledAmount: usd(2_500),
      settlementSummary: { count: 2, totalAmount: 2_500 },
    });
    expect((await cardChangesOf(server, holder.accountId)).map((c) => [c.amount, c.transaction_id])).toEqual([
      [-1_000, id],
      [-1_500, id],
    ]);
    expect(await balances(client, holder.accountId)).toEqual({ balance: 7_500, totalBalance: 7_500 });
    expect(await trail(id)).toEqual([
      "CARD_TRANSACTION.AUTHORIZED AUTHORIZED",
      "CARD_TRANSACTION.PARTIALLY_SETTLED PARTIALLY_SETTLED",
      "CARD_TRANSACTION.SETTLED SETTLED",
    ]);
  });

  test("approved authorization + full reversal (clearing of 0) before any clearing -> VOIDED, hold released, no change", async () => {
    const { holder, cardId } = await newCard();
    const id = await authorize(client, cardId, 2_500);
    await clear(client, cardId, id, 0);
    const row = await cardTransaction(client, id);
    expect(row.status).toBe("VOIDED");
    expect(row).not.toHaveProperty("settledAmount");
    expect(await balances(client, holder.accountId)).toEqual({ balance: 10_000, totalBalance: 10_000 });
    expect(await cardChangesOf(server, holder.accountId)).toEqual([]);
    expect(await trail(id)).toEqual([
      "CARD_TRANSACTION.AUTHORIZED AUTHORIZED",
      "CARD_TRANSACTION.VOIDED VOIDED",
    ]);
  });

  test("approved authorization + expiry 7 days after authorizedAt (service clock) -> VOIDED, hold released; a partly cleared row does not expire", async () => {
    // Its own platform: the test moves the platform clock forward.
    const own = await cardPlatform(server);
    const { holder, cardId } = await fundedCard(server, own.client, 10_000);
    const open = await authorize(own.client, cardId, 2_000);
    const partly = await authorize(own.client, cardId, 3_000);
    await clear(own.client, cardId, partly, 1_000);
    await advance(server, own.client, 7 * DAY - 60_000);
    expect((await cardTransaction(own.client, open)).status).toBe("AUTHORIZED");
    expect(await balances(own.client, holder.accountId)).toEqual({ balance: 5_000, totalBalance: 9_000 });

    await advance(server, own.client, 61_000);
    expect((await cardTransaction(own.client, open)).status).toBe("VOIDED");
    expect((await cardTransaction(own.client, partly)).status).toBe("PARTIALLY_SETTLED");
    expect(await balances(own.client, holder.accountId)).toEqual({ balance: 7_000, totalBalance: 9_000 });
    expect(await eventTrail(server, own.platform.platformId, open)).toEqual([
      "CARD_TRANSACTION.AUTHORIZED AUTHORIZED",
      "CARD_TRANSACTION.VOIDED VOIDED",
    ]);
  });

  test("approved authorization + settlement anomaly (descriptor 006) -> EXCEPTION after its first clearing, with the debit posted", async () => {
    const { holder, cardId } = await newCard();
    const id = await authorize(client, cardId, 2_000, { ...SHOP, descriptor: "ANOMALY MART 006" });
    expect((await cardTransaction(client, id)).status).toBe("AUTHORIZED");
    await clear(client, cardId, id, 500);
    expect(await cardTransaction(client, id)).toMatchObject({ status: "EXCEPTION", settledAmount: usd(500) });
    expect((await cardChangesOf(server, holder.accountId)).map((c) => [c.amount, c.transaction_id])).toEqual([
      [-500, id],
    ]);
    // The row is over: what was still held is released.
    expect(await balances(client, holder.accountId)).toEqual({ balance: 9_500, totalBalance: 9_500 });
    expect(await trail(id)).toEqual([
      "CARD_TRANSACTION.AUTHORIZED AUTHORIZED",
      "CARD_TRANSACTION.EXCEPTION EXCEPTION",
    ]);
  });

  test("authorization request declined -> DECLINED before any money moved, with cardDeclinedReason", async () => {
    const { holder, cardId } = await newCard(1_000);
    const id = await authorize(client, cardId, 1_001);
    expect(await cardTransaction(client, id)).toMatchObject({
      status: "DECLINED",
      cardDeclinedReason: "INSUFFICIENT_FUNDS",
      authorizedAmount: usd(1_001),
      pullSummary: { count: 0, totalAmount: 0 },
    });
    expect(await balances(client, holder.accountId)).toEqual({ balance: 1_000, totalBalance: 1_000 });
    expect(await trail(id)).toEqual(["CARD_TRANSACTION.DECLINED DECLINED"]);
  });

  test("SETTLED purchase + merchant return -> stays SETTLED with refundedAmount; a CREDIT SETTLED refund row with originalTransactionId and a +amount change; SETTLED fires for both", async () => {
    const { holder, cardId } = await newCard();
    const purchase = await authorize(client, cardId, 3_000);
    await clear(client, cardId, purchase, 3_000);
    const refund = await simulateOk(client, cardId, "return", { cardTransactionId: purchase, amount: 1_200 });
    expect(refund).not.toBe(purchase);

    expect(await cardTransaction(client, purchase)).toMatchObject({
      status: "SETTLED",
      direction: "DEBIT",
      settledAmount: usd(3_000),
      refundedAmount: usd(1_200),
      refundSummary: { count: 1, totalAmount: 1_200 },
    });
    const row = await cardTransaction(client, refund);
    expect(row).toMatchObject({
      type: "CARD",
      status: "SETTLED",
      direction: "CREDIT",
      cardId,
      accountId: holder.accountId,
      settledAmount: usd(1_200),
      authorizedAmount: usd(1_200),
      originalTransactionId: purchase,
    });
    expect(
      (await cardChangesOf(server, holder.accountId)).map((c) => [c.amount, c.fee, c.transaction_id]),
    ).toEqual([
      [-3_000, 0, purchase],
      [1_200, 0, refund],
    ]);
    expect(await balances(client, holder.accountId)).toEqual({ balance: 8_200, totalBalance: 8_200 });
    expect(await trail(purchase)).toEqual([
      "CARD_TRANSACTION.AUTHORIZED AUTHORIZED",
      "CARD_TRANSACTION.SETTLED SETTLED",
      "CARD_TRANSACTION.SETTLED SETTLED",
    ]);
    expect(await trail(refund)).toEqual(["CARD_TRANSACTION.SETTLED SETTLED"]);
    // Events rule 3: the refund arrives as SETTLED for a new data.id, CREDIT, pointing at the purchase.
    const events = await eventsOf(server, platformId, "CARD_TRANSACTION.");
    const purchaseEvent = events.filter((e) => e.data.id === purchase).at(-1);
    expect(purchaseEvent?.data).toMatchObject({ refundedAmount: usd(1_200) });
    expect(events.find((e) => e.data.id === refund)?.data).toMatchObject({
      direction: "CREDIT",
      originalTransactionId: purchase,
    });
  });
});

describe("money effects (conventions §6.4)", () => {
  test("clearing: 0 on PARTIALLY_SETTLED releases the rest of the hold -> SETTLED", async () => {
    const { holder, cardId } = await newCard();
    const id = await authorize(client, cardId, 2_500);
    await clear(client, cardId, id, 1_000);
    await clear(client, cardId, id, 0);
    expect(await cardTransaction(client, id)).toMatchObject({ status: "SETTLED", settledAmount: usd(1_000) });
    expect(await balances(client, holder.accountId)).toEqual({ balance: 9_000, totalBalance: 9_000 });
    expect((await cardChangesOf(server, holder.accountId)).map((c) => c.amount)).toEqual([-1_000]);
    expect(await trail(id)).toEqual([
      "CARD_TRANSACTION.AUTHORIZED AUTHORIZED",
      "CARD_TRANSACTION.PARTIALLY_SETTLED PARTIALLY_SETTLED",
      "CARD_TRANSACTION.SETTLED SETTLED",
    ]);
  });

  test("clearing: a clearing above the hold is debited in full, as an extra pull in pullSummary", async () => {
    const { holder, cardId } = await newCard();
    const id = await authorize(client, cardId, 2_000);
    await clear(client, cardId, id, 2_600);
    expect(await cardTransaction(client, id)).toMatchObject({
      status: "SETTLED",
      settledAmount: usd(2_600),
      pullSummary: { count: 2, totalAmount: 2_600 },
    });
    expect((await cardChangesOf(server, holder.accountId)).map((c) => c.amount)).toEqual([-2_600]);
    expect(await balances(client, holder.accountId)).toEqual({ balance: 7_400, totalBalance: 7_400 });
  });

  test("clearing: when the account cannot cover it, only what it covers is debited, settledAmount records the network amount, and the row is EXCEPTION", async () => {
    const { holder, cardId } = await newCard(1_000);
    const id = await authorize(client, cardId, 1_000);
    await clear(client, cardId, id, 1_500);
    expect(await cardTransaction(client, id)).toMatchObject({
      status: "EXCEPTION",
      settledAmount: usd(1_500),
    });
    expect((await cardChangesOf(server, holder.accountId)).map((c) => c.amount)).toEqual([-1_000]);
    expect(await balances(client, holder.accountId)).toEqual({ balance: 0, totalBalance: 0 });
    expect(await trail(id)).toEqual([
      "CARD_TRANSACTION.AUTHORIZED AUTHORIZED",
      "CARD_TRANSACTION.EXCEPTION EXCEPTION",
    ]);
  });

  test("clearing: another row's hold is not spent to cover an over-hold clearing (the account covers its available balance plus the row's own hold)", async () => {
    const { holder, cardId } = await newCard(1_000);
    const other = await authorize(client, cardId, 400);
    const id = await authorize(client, cardId, 500);
    await clear(client, cardId, id, 700);
    // 100 available + 500 of its own hold: 600 of the 700 is debited.
    expect(await cardTransaction(client, id)).toMatchObject({ status: "EXCEPTION", settledAmount: usd(700) });
    expect((await cardChangesOf(server, holder.accountId)).map((c) => c.amount)).toEqual([-600]);
    expect((await cardTransaction(client, other)).status).toBe("AUTHORIZED");
    expect(await balances(client, holder.accountId)).toEqual({ balance: 0, totalBalance: 400 });
  });

  test("return reversal: a -amount change on the refund row, the refund row VOIDED, refundedAmount shrinks; VOIDED and SETTLED fire", async () => {
    const { holder, cardId } = await newCard();
    const purchase = await authorize(client, cardId, 3_000);
    await clear(client, cardId, purchase, 3_000);
    const first = await simulateOk(client, cardId, "return", { cardTransactionId: purchase, amount: 1_000 });
    const second = await simulateOk(client, cardId, "return", { cardTransactionId: purchase, amount: 500 });
    expect(await simulateOk(client, cardId, "return_reversal", { cardTransactionId: first })).toBe(first);

    expect(await cardTransaction(client, first)).toMatchObject({ status: "VOIDED", direction: "CREDIT" });
    expect((await cardTransaction(client, second)).status).toBe("SETTLED");
    expect(await cardTransaction(client, purchase)).toMatchObject({
      status: "SETTLED",
      refundedAmount: usd(500),
      refundSummary: { count: 1, totalAmount: 500 },
    });
    expect(
      (await cardChangesOf(server, holder.accountId)).map((c) => [c.amount, c.fee, c.transaction_id]),
    ).toEqual([
      [-3_000, 0, purchase],
      [1_000, 0, first],
      [500, 0, second],
      [-1_000, 0, first],
    ]);
    expect(await balances(client, holder.accountId)).toEqual({ balance: 7_500, totalBalance: 7_500 });
    expect(await trail(first)).toEqual([
      "CARD_TRANSACTION.SETTLED SETTLED",
      "CARD_TRANSACTION.VOIDED VOIDED",
    ]);
    expect((await trail(purchase)).slice(-1)).toEqual(["CARD_TRANSACTION.SETTLED SETTLED"]);
    expect((await trail(purchase)).length).toBe(5);
  });

  test("authorization advice resizes the hold to the new total and fires AUTHORIZED again", async () => {
    const { holder, cardId } = await newCard();
    const id = await authorize(client, cardId, 2_000);
    await simulateOk(client, cardId, "authorization_advice", { cardTransactionId: id, amount: 3_000 });
    expect(await cardTransaction(client, id)).toMatchObject({
      status: "AUTHORIZED",
      authorizedAmount: usd(3_000),
      pullSummary: { count: 2, totalAmount: 3_000 },
    });
    expect(await balances(client, holder.accountId)).toEqual({ balance: 7_000, totalBalance: 10_000 });
    await simulateOk(client, cardId, "authorization_advice", { cardTransactionId: id, amount: 1_500 });
    expect(await balances(client, holder.accountId)).toEqual({ balance: 8_500, totalBalance: 10_000 });
    await clear(client, cardId, id, 1_500);
    expect((await cardTransaction(client, id)).status).toBe("SETTLED");
    expect(await balances(client, holder.accountId)).toEqual({ balance: 8_500, totalBalance: 8_500 });
    expect(await cardChangesOf(server, holder.accountId)).toHaveLength(1);
    expect(await trail(id)).toEqual([
      "CARD_TRANSACTION.AUTHORIZED AUTHORIZED",
      "CARD_TRANSACTION.AUTHORIZED AUTHORIZED",
      "CARD_TRANSACTION.AUTHORIZED AUTHORIZED",
      "CARD_TRANSACTION.SETTLED SETTLED",
    ]);
  });

  test("card balance changes carry fee 0 (balance-change rule 4)", async () => {
    const { holder, cardId } = await newCard();
    const purchase = await authorize(client, cardId, 2_000);
    await clear(client, cardId, purchase, 800);
    await clear(client, cardId, purchase, 1_500);
    const refund = await simulateOk(client, cardId, "return", { cardTransactionId: purchase, amount: 300 });
    await simulateOk(client, cardId, "return_reversal", { cardTransactionId: refund });
    await simulateOk(client, cardId, "financial_authorization", opening(400));
    await simulateOk(client, cardId, "financial_credit_authorization", opening(250));
    const credit = await simulateOk(client, cardId, "credit_authorization", opening(600));
    await clear(client, cardId, credit, 600);
    const changes = await cardChangesOf(server, holder.accountId);
    expect(changes).toHaveLength(7);
    expect(changes.map((c) => c.fee)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  test("authorizations, advices, balance inquiries and declines move no money: no balance change", async () => {
    const { holder, cardId } = await newCard(5_000);
    const approved = await authorize(client, cardId, 1_000);
    await simulateOk(client, cardId, "authorization_advice", { cardTransactionId: approved, amount: 1_200 });
    await simulateOk(client, cardId, "balance_inquiry", { merchant: SHOP });
    await authorize(client, cardId, 9_000);
    await authorize(client, cardId, 100, { ...SHOP, descriptor: "BLOCKED SHOP 007" });
    await simulateOk(client, cardId, "credit_authorization", opening(300));
    expect(await cardChangesOf(server, holder.accountId)).toEqual([]);
    expect((await balances(client, holder.accountId)).totalBalance).toBe(5_000);
  });
});

describe("account events (conventions §7.4)", () => {
  test("a hold fires INTERNAL_ACCOUNT.BALANCE_UPDATED with the lower balance; a decline fires none", async () => {
    const { holder, cardId } = await newCard(5_000);
    const balanceEvents = async () =>
      (await eventsOf(server, platformId, "INTERNAL_ACCOUNT.BALANCE_UPDATED"))
        .map((e) => e.data as { id: string; balance: { amount: number }; totalBalance: { amount: number } })
        .filter((d) => d.id === holder.accountId)
        .map((d) => [d.balance.amount, d.totalBalance.amount]);
    const before = await balanceEvents();
    await authorize(client, cardId, 1_000);
    expect((await balanceEvents()).slice(before.length)).toEqual([[4_000, 5_000]]);
    await authorize(client, cardId, 9_999);
    await authorize(client, cardId, 10, { ...SHOP, descriptor: "NOPE 008" });
    expect((await balanceEvents()).slice(before.length)).toEqual([[4_000, 5_000]]);
  });
});

describe("sandbox simulations (conventions §6.5)", () => {
  test("balance_inquiry -> AUTHORIZED with amount 0 and no hold", async () => {
    const { holder, cardId } = await newCard();
    const id = await simulateOk(client, cardId, "balance_inquiry", { merchant: SHOP });
    expect(await cardTransaction(client, id)).toMatchObject({
      status: "AUTHORIZED",
      direction: "DEBIT",
      authorizedAmount: usd(0),
      pullSummary: { count: 0, totalAmount: 0 },
    });
    expect(await balances(client, holder.accountId)).toEqual({ balance: 10_000, totalBalance: 10_000 });
    expect(await trail(id)).toEqual(["CARD_TRANSACTION.AUTHORIZED AUTHORIZED"]);
  });

  test("balance_inquiry: the decline rules apply (frozen card -> DECLINED CARD_NOT_ACTIVE)", async () => {
    const { cardId } = await newCard();
    await setCardStatus(client, cardId, "FROZEN");
    const id = await simulateOk(client, cardId, "balance_inquiry", { merchant: SHOP });
    expect(await cardTransaction(client, id)).toMatchObject({
      status: "DECLINED",
      cardDeclinedReason: "CARD_NOT_ACTIVE",
    });
  });

  test("credit_authorization -> CREDIT AUTHORIZED with no hold; its clearing credits the account", async () => {
    const { holder, cardId } = await newCard();
    const id = await simulateOk(client, cardId, "credit_authorization", opening(1_500));
    expect(await cardTransaction(client, id)).toMatchObject({ status: "AUTHORIZED", direction: "CREDIT" });
    expect(await balances(client, holder.accountId)).toEqual({ balance: 10_000, totalBalance: 10_000 });
    await clear(client, cardId, id, 1_500);
    expect(await cardTransaction(client, id)).toMatchObject({ status: "SETTLED", settledAmount: usd(1_500) });
    expect((await cardChangesOf(server, holder.accountId)).map((c) => [c.amount, c.transaction_id])).toEqual([
      [1_500, id],
    ]);
    expect(await balances(client, holder.accountId)).toEqual({ balance: 11_500, totalBalance: 11_500 });
    expect(await trail(id)).toEqual([
      "CARD_TRANSACTION.AUTHORIZED AUTHORIZED",
      "CARD_TRANSACTION.SETTLED SETTLED",
    ]);
  });

  test("credit_authorization_advice skips the decline checks: approved on a FROZEN card", async () => {
    const { holder, cardId } = await newCard();
    await setCardStatus(client, cardId, "FROZEN");
    const declined = await simulateOk(client, cardId, "credit_authorization", opening(900));
    expect(await cardTransaction(client, declined)).toMatchObject({
      status: "DECLINED",
      cardDeclinedReason: "CARD_NOT_ACTIVE",
    });
    const id = await simulateOk(client, cardId, "credit_authorization_advice", opening(900));
    expect(await cardTransaction(client, id)).toMatchObject({ status: "AUTHORIZED", direction: "CREDIT" });
    expect(await cardTransaction(client, id)).not.toHaveProperty("cardDeclinedReason");
    await clear(client, cardId, id, 900);
    expect(await balances(client, holder.accountId)).toEqual({ balance: 10_900, totalBalance: 10_900 });
  });

  test("financial_authorization -> SETTLED at once with one debit change, one SETTLED event", async () => {
    const { holder, cardId } = await newCard();
    const id = await simulateOk(client, cardId, "financial_authorization", opening(1_800));
    expect(await cardTransaction(client, id)).toMatchObject({
      status: "SETTLED",
      direction: "DEBIT",
      authorizedAmount: usd(1_800),
      settledAmount: usd(1_800),
    });
    expect(
      (await cardChangesOf(server, holder.accountId)).map((c) => [c.amount, c.fee, c.transaction_id]),
    ).toEqual([[-1_800, 0, id]]);
    expect(await balances(client, holder.accountId)).toEqual({ balance: 8_200, totalBalance: 8_200 });
    expect(await trail(id)).toEqual(["CARD_TRANSACTION.SETTLED SETTLED"]);
  });

  test("financial_credit_authorization -> CREDIT SETTLED at once with one credit change, one SETTLED event", async () => {
    const { holder, cardId } = await newCard();
    const id = await simulateOk(client, cardId, "financial_credit_authorization", opening(700));
    expect(await cardTransaction(client, id)).toMatchObject({
      status: "SETTLED",
      direction: "CREDIT",
      settledAmount: usd(700),
    });
    expect(
      (await cardChangesOf(server, holder.accountId)).map((c) => [c.amount, c.fee, c.transaction_id]),
    ).toEqual([[700, 0, id]]);
    expect(await balances(client, holder.accountId)).toEqual({ balance: 10_700, totalBalance: 10_700 });
    expect(await trail(id)).toEqual(["CARD_TRANSACTION.SETTLED SETTLED"]);
  });

  test("descriptor 005: approved with pullSummary.pendingCount 1 and no hold; 30 s later (platform clock) the hold lands and AUTHORIZED fires", async () => {
    // Its own platform: the test moves the platform clock forward.
    const own = await cardPlatform(server);
    const { holder, cardId } = await fundedCard(server, own.client, 10_000);
    const id = await authorize(own.client, cardId, 2_000, { ...SHOP, descriptor: "SLOW PULL 005" });
    expect(await cardTransaction(own.client, id)).toMatchObject({
      status: "AUTHORIZED",
      pullSummary: { count: 0, totalAmount: 0, pendingCount: 1 },
    });
    expect(await balances(own.client, holder.accountId)).toEqual({ balance: 10_000, totalBalance: 10_000 });
    expect(await eventTrail(server, own.platform.platformId, id)).toEqual([]);

    await advance(server, own.client, 20_000);
    expect((await cardTransaction(own.client, id)).pullSummary.pendingCount).toBe(1);

    await advance(server, own.client, 11_000);
    const row = await cardTransaction(own.client, id);
    expect(row.pullSummary).toEqual({ count: 1, totalAmount: 2_000 });
    expect(await balances(own.client, holder.accountId)).toEqual({ balance: 8_000, totalBalance: 10_000 });
    expect(await eventTrail(server, own.platform.platformId, id)).toEqual([
      "CARD_TRANSACTION.AUTHORIZED AUTHORIZED",
    ]);
  });

  test("descriptor 005: a clearing before the pull lands is an extra pull; the landing pull holds and counts only the rest", async () => {
    const own = await cardPlatform(server);
    const { holder, cardId } = await fundedCard(server, own.client, 10_000);
    const id = await authorize(own.client, cardId, 2_000, { ...SHOP, descriptor: "SLOW PULL 005" });
    await clear(own.client, cardId, id, 500);
    expect(await cardTransaction(own.client, id)).toMatchObject({
      status: "PARTIALLY_SETTLED",
      pullSummary: { count: 1, totalAmount: 500, pendingCount: 1 },
    });
    await advance(server, own.client, 31_000);
    expect((await cardTransaction(own.client, id)).pullSummary).toEqual({ count: 2, totalAmount: 2_000 });
    expect(await balances(own.client, holder.accountId)).toEqual({ balance: 8_000, totalBalance: 9_500 });
  });

  test("descriptor 005: a row that ended before its pull landed gets no hold and no further event", async () => {
    const own = await cardPlatform(server);
    const { holder, cardId } = await fundedCard(server, own.client, 10_000);
    const id = await authorize(own.client, cardId, 2_000, { ...SHOP, descriptor: "SLOW PULL 005" });
    await clear(own.client, cardId, id, 0);
    await advance(server, own.client, 31_000);
    expect(await cardTransaction(own.client, id)).toMatchObject({
      status: "VOIDED",
      pullSummary: { count: 0, totalAmount: 0 },
    });
    expect(await balances(own.client, holder.accountId)).toEqual({ balance: 10_000, totalBalance: 10_000 });
    expect(await eventTrail(server, own.platform.platformId, id)).toEqual(["CARD_TRANSACTION.VOIDED VOIDED"]);
  });

  test("descriptor 006 on a financial_authorization: its clearing is its first, so it ends in EXCEPTION with the debit posted", async () => {
    const { holder, cardId } = await newCard();
    const id = await simulateOk(
      client,
      cardId,
      "financial_authorization",
      opening(900, { descriptor: "ODD 006" }),
    );
    expect(await cardTransaction(client, id)).toMatchObject({ status: "EXCEPTION", settledAmount: usd(900) });
    expect((await cardChangesOf(server, holder.accountId)).map((c) => c.amount)).toEqual([-900]);
    expect(await trail(id)).toEqual(["CARD_TRANSACTION.EXCEPTION EXCEPTION"]);
  });

  test("the row carries currency metadata (decimals, name, symbol) and the merchant's city and state", async () => {
    const { cardId } = await newCard();
    const merchant = { descriptor: "BOOKS 4 U", mcc: "5942", country: "US", city: "Chicago", state: "IL" };
    const id = await authorize(client, cardId, 1_234, merchant);
    await clear(client, cardId, id, 1_000);
    const row = await cardTransaction(client, id);
    expect(row.merchant).toEqual(merchant);
    expect(row.authorizedAmount).toEqual({ amount: 1_234, currency: USD });
    expect(row.settledAmount).toEqual({ amount: 1_000, currency: USD });
    const event = (await eventsOf(server, platformId, "CARD_TRANSACTION."))
      .filter((e) => e.data.id === id)
      .at(-1);
    expect(event?.data).toMatchObject({ merchant, settledAmount: { currency: USD } });
  });

  test("simulations answer 202 {issuerTransactionToken, cardTransactionId} naming the row created or affected", async () => {
    const { cardId } = await newCard();
    const res = await simulate(client, cardId, "authorization", opening(100));
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(["cardTransactionId", "issuerTransactionToken"]);
    const row = await cardTransaction(client, res.body.cardTransactionId);
    expect(row.issuerTransactionToken).toBe(res.body.issuerTransactionToken);
  });
});
