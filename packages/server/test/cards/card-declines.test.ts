import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openCardTransaction } from "../../src/cards/authorize.js";
import type { Caller } from "../../src/core/http/context.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { cardPlatform, eventsOf, fund, issueCard, newCardholder } from "./helpers.js";
import {
  authorize,
  balances,
  cardChangesOf,
  cardTransaction,
  clear,
  eventTrail,
  fundedCard,
  opening,
  SHOP,
  secondUsdAccount,
  setAccountStatus,
  setCardStatus,
  simulate,
  simulateOk,
  usd,
} from "./transaction-helpers.js";

// Conventions §6.5 decline checks, in order: (1) card not ACTIVE, (2) no ACTIVE funding source in the
// card's currency, (3) above maxSpendPerTransaction, (4) descriptor suffix, (5) funds (sandbox only).
// Interface: cardDeclinedReason values; DECLINED is terminal, before any money moved.

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

const merchant = (descriptor: string) => ({ ...SHOP, descriptor });

interface DeclineCase {
  rule: string;
  reason: string;
  /** Card options at issue. */
  card?: Record<string, unknown>;
  funds?: number;
  /** What the test does to the card or its account before the authorization. */
  arrange?: (cardId: string, accountId: string) => Promise<void>;
  amount: number;
  descriptor?: string;
}

const freeze = (cardId: string) => setCardStatus(client, cardId, "FROZEN");
const close = (cardId: string) => setCardStatus(client, cardId, "CLOSED");
const freezeAccount = (_: string, accountId: string) => setAccountStatus(server, accountId, "FROZEN");

const reasons: DeclineCase[] = [
  { rule: "a FROZEN card", reason: "CARD_NOT_ACTIVE", arrange: freeze, amount: 100 },
  { rule: "a CLOSED card", reason: "CARD_NOT_ACTIVE", arrange: close, amount: 100 },
  {
    rule: "no ACTIVE funding source in the card's currency",
    reason: "NO_ELIGIBLE_FUNDING_SOURCE",
    arrange: freezeAccount,
    amount: 100,
  },
  {
    rule: "an amount above maxSpendPerTransaction",
    reason: "SPEND_LIMIT_EXCEEDED",
    card: { maxSpendPerTransaction: 5_000 },
    amount: 5_001,
  },
  { rule: "descriptor suffix 002", reason: "INSUFFICIENT_FUNDS", amount: 100, descriptor: "SHOP 002" },
  { rule: "descriptor suffix 003", reason: "CARD_NOT_ACTIVE", amount: 100, descriptor: "SHOP 003" },
  { rule: "descriptor suffix 007", reason: "BLOCKED", amount: 100, descriptor: "SHOP 007" },
  { rule: "descriptor suffix 008", reason: "UNSUPPORTED_NETWORK", amount: 100, descriptor: "SHOP 008" },
  { rule: "descriptor suffix 009", reason: "OTHER", amount: 100, descriptor: "SHOP 009" },
  {
    rule: "no source whose balance covers the amount (sandbox)",
    reason: "INSUFFICIENT_FUNDS",
    amount: 10_001,
  },
];

// The decline-check order when two checks apply: the earlier check names the reason.
const orders: DeclineCase[] = [
  {
    rule: "(1) card not ACTIVE before (2) no eligible source",
    reason: "CARD_NOT_ACTIVE",
    arrange: async (cardId, accountId) => {
      await freeze(cardId);
      await freezeAccount(cardId, accountId);
    },
    amount: 100,
  },
  {
    rule: "(2) no eligible source before (3) spend limit",
    reason: "NO_ELIGIBLE_FUNDING_SOURCE",
    card: { maxSpendPerTransaction: 50 },
    arrange: freezeAccount,
    amount: 100,
  },
  {
    rule: "(3) spend limit before (4) descriptor suffix",
    reason: "SPEND_LIMIT_EXCEEDED",
    card: { maxSpendPerTransaction: 50 },
    amount: 100,
    descriptor: "SHOP 007",
  },
  {
    rule: "(4) descriptor suffix before (5) funds",
    reason: "UNSUPPORTED_NETWORK",
    amount: 10_001,
    descriptor: "SHOP 008",
  },
  {
    rule: "(1) card not ACTIVE before (4) descriptor suffix 002",
    reason: "CARD_NOT_ACTIVE",
    arrange: freeze,
    amount: 100,
    descriptor: "SHOP 002",
  },
  {
    rule: "(3) spend limit before (5) funds",
    reason: "SPEND_LIMIT_EXCEEDED",
    card: { maxSpendPerTransaction: 10_000 },
    amount: 10_001,
  },
];

async function declined(c: DeclineCase) {
  const { holder, cardId } = await fundedCard(server, client, c.funds ?? 10_000, c.card);
  await c.arrange?.(cardId, holder.accountId);
  const before = await balances(client, holder.accountId);
  const id = await authorize(client, cardId, c.amount, merchant(c.descriptor ?? SHOP.descriptor));
  return { holder, cardId, id, before };
}

describe("cardDeclinedReason (conventions §6.5)", () => {
  test.each(reasons)("$rule -> DECLINED $reason", async (c) => {
    const { id } = await declined(c);
    expect(await cardTransaction(client, id)).toMatchObject({
      status: "DECLINED",
      cardDeclinedReason: c.reason,
      authorizedAmount: usd(c.amount),
    });
  });

  test("a PROCESSING card (issuer suffix 001) -> DECLINED CARD_NOT_ACTIVE", async () => {
    const holder = await newCardholder(client);
    await fund(client, holder.accountId, 10_000);
    const card = await issueCard(client, holder, { platformCardId: "still-processing-001" });
    await server.jobs.runDue();
    expect((await client.get<{ status: string }>(`/cards/${card.id}`)).body.status).toBe("PROCESSING");
    const id = await authorize(client, card.id, 100);
    expect(await cardTransaction(client, id)).toMatchObject({
      status: "DECLINED",
      cardDeclinedReason: "CARD_NOT_ACTIVE",
    });
  });

  test("exactly maxSpendPerTransaction is allowed", async () => {
    const { cardId } = await fundedCard(server, client, 10_000, { maxSpendPerTransaction: 5_000 });
    const id = await authorize(client, cardId, 5_000);
    expect((await cardTransaction(client, id)).status).toBe("AUTHORIZED");
  });

  test("exactly the available balance is allowed (sandbox funds check)", async () => {
    const { holder, cardId } = await fundedCard(server, client, 10_000);
    await authorize(client, cardId, 4_000);
    const id = await authorize(client, cardId, 6_000);
    expect((await cardTransaction(client, id)).status).toBe("AUTHORIZED");
    expect(await balances(client, holder.accountId)).toEqual({ balance: 0, totalBalance: 10_000 });
    const over = await authorize(client, cardId, 1);
    expect(await cardTransaction(client, over)).toMatchObject({ cardDeclinedReason: "INSUFFICIENT_FUNDS" });
  });
});

describe("decline-check order (conventions §6.5)", () => {
  test.each(orders)("$rule -> $reason", async (c) => {
    const { id } = await declined(c);
    expect(await cardTransaction(client, id)).toMatchObject({
      status: "DECLINED",
      cardDeclinedReason: c.reason,
    });
  });
});

describe("DECLINED (interface state table)", () => {
  test("DECLINED places no hold, makes no balance change, and fires CARD_TRANSACTION.DECLINED with cardDeclinedReason", async () => {
    const { holder, id, before } = await declined(reasons[6] as DeclineCase);
    expect(await balances(client, holder.accountId)).toEqual(before);
    expect(await cardChangesOf(server, holder.accountId)).toEqual([]);
    const row = await cardTransaction(client, id);
    expect(row.pullSummary).toEqual({ count: 0, totalAmount: 0 });
    expect(row).not.toHaveProperty("settledAmount");
    const events = (await eventsOf(server, platformId, "CARD_TRANSACTION.")).filter((e) => e.data.id === id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "CARD_TRANSACTION.DECLINED" });
    expect(events[0]?.data).toEqual(row);
  });

  test("DECLINED is terminal: clearing, advice and return on it -> 409 CONFLICT, nothing changes", async () => {
    const { holder, cardId, id } = await declined(reasons[9] as DeclineCase);
    const attempts = [
      await simulate(client, cardId, "clearing", { cardTransactionId: id, amount: 100 }),
      await simulate(client, cardId, "clearing", { cardTransactionId: id, amount: 0 }),
      await simulate(client, cardId, "authorization_advice", { cardTransactionId: id, amount: 100 }),
      await simulate(client, cardId, "return", { cardTransactionId: id, amount: 100 }),
    ];
    expect(attempts.map((r) => [r.status, r.body.code])).toEqual([
      [409, "CONFLICT"],
      [409, "CONFLICT"],
      [409, "CONFLICT"],
      [409, "CONFLICT"],
    ]);
    expect((await cardTransaction(client, id)).status).toBe("DECLINED");
    expect(await cardChangesOf(server, holder.accountId)).toEqual([]);
    expect(await eventTrail(server, platformId, id)).toEqual(["CARD_TRANSACTION.DECLINED DECLINED"]);
  });

  test("an unfrozen card is approved again (CARD_NOT_ACTIVE follows the card's current status)", async () => {
    const { cardId } = await fundedCard(server, client, 10_000);
    await setCardStatus(client, cardId, "FROZEN");
    const frozen = await authorize(client, cardId, 100);
    await setCardStatus(client, cardId, "ACTIVE");
    const active = await authorize(client, cardId, 100);
    expect((await cardTransaction(client, frozen)).status).toBe("DECLINED");
    expect((await cardTransaction(client, active)).status).toBe("AUTHORIZED");
  });
});

describe("funding source choice (conventions §6.3 accountId)", () => {
  test("the first eligible source in priority order whose balance covers the amount is charged: the second when the first cannot cover it", async () => {
    const { holder, cardId } = await fundedCard(server, client, 1_000);
    const second = await secondUsdAccount(server, platformId, holder.customerId);
    await fund(client, second, 5_000);
    const patched = await client.patch(`/cards/${cardId}`, { fundingSources: [holder.accountId, second] });
    expect(patched.status, patched.text).toBe(200);

    const small = await authorize(client, cardId, 800);
    const large = await authorize(client, cardId, 3_000);
    expect((await cardTransaction(client, small)).accountId).toBe(holder.accountId);
    expect(await cardTransaction(client, large)).toMatchObject({ status: "AUTHORIZED", accountId: second });
    expect(await balances(client, holder.accountId)).toEqual({ balance: 200, totalBalance: 1_000 });
    expect(await balances(client, second)).toEqual({ balance: 2_000, totalBalance: 5_000 });

    await clear(client, cardId, large, 3_000);
    expect((await cardChangesOf(server, second)).map((c) => [c.amount, c.transaction_id])).toEqual([
      [-3_000, large],
    ]);
    expect(await cardChangesOf(server, holder.accountId)).toEqual([]);
  });

  test("a source that is not ACTIVE is skipped; the next ACTIVE one is charged", async () => {
    const { holder, cardId } = await fundedCard(server, client, 5_000);
    const second = await secondUsdAccount(server, platformId, holder.customerId);
    await fund(client, second, 5_000);
    expect(
      (await client.patch(`/cards/${cardId}`, { fundingSources: [holder.accountId, second] })).status,
    ).toBe(200);
    await setAccountStatus(server, holder.accountId, "FROZEN");
    const id = await authorize(client, cardId, 100);
    expect(await cardTransaction(client, id)).toMatchObject({ status: "AUTHORIZED", accountId: second });
  });

  test("no source covers the amount on its own -> INSUFFICIENT_FUNDS, even when together they would", async () => {
    const { holder, cardId } = await fundedCard(server, client, 1_000);
    const second = await secondUsdAccount(server, platformId, holder.customerId);
    await fund(client, second, 1_000);
    expect(
      (await client.patch(`/cards/${cardId}`, { fundingSources: [holder.accountId, second] })).status,
    ).toBe(200);
    const id = await authorize(client, cardId, 1_500);
    expect(await cardTransaction(client, id)).toMatchObject({
      status: "DECLINED",
      cardDeclinedReason: "INSUFFICIENT_FUNDS",
    });
  });
});

describe("production semantics (interface: INSUFFICIENT_FUNDS is sandbox only)", () => {
  test("production-issuer path (UnderfundedPolicy APPROVE): an underfunded authorization is approved, and its clearing resolves as EXCEPTION", async () => {
    const own = await cardPlatform(server);
    const { holder, cardId } = await fundedCard(server, own.client, 1_000);
    const caller: Caller = {
      platformId: own.platform.platformId,
      tokenId: own.platform.tokenId,
      permissions: ["VIEW", "TRANSACT", "MANAGE"],
      environment: "SANDBOX",
      clockOffsetMs: 0,
    };
    const { cardTransactionId: id } = await openCardTransaction(
      server.deps,
      caller,
      cardId,
      { message: "AUTHORIZATION", amount: 2_500, currencyCode: "USD", merchant: SHOP },
      "APPROVE",
    );
    expect(await cardTransaction(own.client, id)).toMatchObject({
      status: "AUTHORIZED",
      accountId: holder.accountId,
      authorizedAmount: usd(2_500),
    });
    // The hold is placed in full: the available balance goes below zero.
    expect(await balances(own.client, holder.accountId)).toEqual({ balance: -1_500, totalBalance: 1_000 });

    await clear(own.client, cardId, id, 2_500);
    expect(await cardTransaction(own.client, id)).toMatchObject({
      status: "EXCEPTION",
      settledAmount: usd(2_500),
    });
    expect((await cardChangesOf(server, holder.accountId)).map((c) => c.amount)).toEqual([-1_000]);
    expect(await balances(own.client, holder.accountId)).toEqual({ balance: 0, totalBalance: 0 });
    expect(await eventTrail(server, own.platform.platformId, id)).toEqual([
      "CARD_TRANSACTION.AUTHORIZED AUTHORIZED",
      "CARD_TRANSACTION.EXCEPTION EXCEPTION",
    ]);
  });

  test("production-issuer path (UnderfundedPolicy APPROVE): the other decline checks still apply", async () => {
    const own = await cardPlatform(server);
    const { cardId } = await fundedCard(server, own.client, 1_000, { maxSpendPerTransaction: 2_000 });
    const caller: Caller = {
      platformId: own.platform.platformId,
      tokenId: own.platform.tokenId,
      permissions: ["VIEW", "TRANSACT", "MANAGE"],
      environment: "SANDBOX",
      clockOffsetMs: 0,
    };
    const { cardTransactionId: id } = await openCardTransaction(
      server.deps,
      caller,
      cardId,
      { message: "AUTHORIZATION", amount: 2_500, currencyCode: "USD", merchant: SHOP },
      "APPROVE",
    );
    expect(await cardTransaction(own.client, id)).toMatchObject({
      status: "DECLINED",
      cardDeclinedReason: "SPEND_LIMIT_EXCEEDED",
    });
  });
});

test("credits skip the funds check: a credit_authorization on an empty account is approved", async () => {
  const { cardId } = await fundedCard(server, client, 0);
  const id = await simulateOk(client, cardId, "credit_authorization", opening(5_000));
  expect((await cardTransaction(client, id)).status).toBe("AUTHORIZED");
});
