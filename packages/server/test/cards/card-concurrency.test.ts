import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openCardTransaction } from "../../src/cards/authorize.js";
import type { Caller } from "../../src/core/http/context.js";
import type { Credentials, TestClient, TestServer } from "../harness.js";
import { startServer } from "../harness.js";
import { activeCard, cardPlatform } from "./helpers.js";
import {
  authorize,
  balances,
  cardChangesOf,
  cardTransaction,
  clear,
  fundedCard,
  opening,
  SHOP,
  simulate,
} from "./transaction-helpers.js";

// Conventions §6.5 check 5 (sandbox INSUFFICIENT_FUNDS) and house-style rule 8 (check balances under a
// lock): racing authorizations never approve more than the available balance. Meaningful on PostgreSQL
// (DATABASE_URL), where the requests really run in parallel; PGlite serializes them.

let server: TestServer;
let client: TestClient;
let platform: Credentials;
beforeAll(async () => {
  server = await startServer();
  ({ client, platform } = await cardPlatform(server));
});
afterAll(() => server.close());

const ROUNDS = 5;

/** Sends the authorizations at once and returns each row's status and decline reason. */
async function race(cards: string[], amount: number) {
  const responses = await Promise.all(
    cards.map((cardId) => simulate(client, cardId, "authorization", opening(amount))),
  );
  for (const res of responses) expect(res.status, res.text).toBe(202);
  return Promise.all(
    responses.map(async (res) => {
      const row = await cardTransaction(client, res.body.cardTransactionId);
      return `${row.status} ${row.cardDeclinedReason ?? ""}`.trim();
    }),
  );
}

describe("concurrent authorizations (sandbox)", () => {
  test.each(Array.from({ length: ROUNDS }, (_, i) => i + 1))(
    "two cards racing for the last funds: exactly one of two 700 authorizations on 1,000 is approved (round %i)",
    async () => {
      const { holder, cardId } = await fundedCard(server, client, 1_000);
      const second = await activeCard(server, client, holder);
      const outcomes = await race([cardId, second.id], 700);
      expect(outcomes.sort()).toEqual(["AUTHORIZED", "DECLINED INSUFFICIENT_FUNDS"]);
      expect(await balances(client, holder.accountId)).toEqual({ balance: 300, totalBalance: 1_000 });
      expect(await cardChangesOf(server, holder.accountId)).toEqual([]);
    },
  );

  test.each(Array.from({ length: ROUNDS }, (_, i) => i + 1))(
    "one card racing itself: exactly one of two 700 authorizations on 1,000 is approved (round %i)",
    async () => {
      const { holder, cardId } = await fundedCard(server, client, 1_000);
      const outcomes = await race([cardId, cardId], 700);
      expect(outcomes.sort()).toEqual(["AUTHORIZED", "DECLINED INSUFFICIENT_FUNDS"]);
      expect(await balances(client, holder.accountId)).toEqual({ balance: 300, totalBalance: 1_000 });
    },
  );

  test.each(Array.from({ length: ROUNDS }, (_, i) => i + 1))(
    "two authorization messages started at the same instant in the domain: exactly one of two 700 on 1,000 is approved (round %i)",
    async () => {
      // Below HTTP, so both transactions surely start together (each on its own connection on PostgreSQL).
      const { holder, cardId } = await fundedCard(server, client, 1_000);
      const second = await activeCard(server, client, holder);
      const caller: Caller = {
        platformId: platform.platformId,
        tokenId: platform.tokenId,
        permissions: ["VIEW", "TRANSACT", "MANAGE"],
        environment: "SANDBOX",
        clockOffsetMs: 0,
      };
      const request = { message: "AUTHORIZATION" as const, amount: 700, currencyCode: "USD", merchant: SHOP };
      const results = await Promise.all(
        [cardId, second.id].map((id) => openCardTransaction(server.deps, caller, id, request, "DECLINE")),
      );
      const outcomes = await Promise.all(
        results.map(async (r) => {
          const row = await cardTransaction(client, r.cardTransactionId);
          return `${row.status} ${row.cardDeclinedReason ?? ""}`.trim();
        }),
      );
      expect(outcomes.sort()).toEqual(["AUTHORIZED", "DECLINED INSUFFICIENT_FUNDS"]);
      expect(await balances(client, holder.accountId)).toEqual({ balance: 300, totalBalance: 1_000 });
    },
  );

  test("eight authorizations of 300 on 1,000 across four cards: exactly three are approved", async () => {
    const { holder, cardId } = await fundedCard(server, client, 1_000);
    const others = [
      await activeCard(server, client, holder),
      await activeCard(server, client, holder),
      await activeCard(server, client, holder),
    ];
    const cards = [cardId, ...others.map((c) => c.id)];
    const outcomes = await race([...cards, ...cards], 300);
    expect(outcomes.filter((o) => o === "AUTHORIZED")).toHaveLength(3);
    expect(outcomes.filter((o) => o === "DECLINED INSUFFICIENT_FUNDS")).toHaveLength(5);
    expect(await balances(client, holder.accountId)).toEqual({ balance: 100, totalBalance: 1_000 });
  });

  test("a clearing racing an authorization on the same account: the ledger and the holds stay consistent", async () => {
    const { holder, cardId } = await fundedCard(server, client, 1_000);
    const second = await activeCard(server, client, holder);
    const first = await simulate(client, cardId, "authorization", opening(600));
    const [cleared, raced] = await Promise.all([
      simulate(client, cardId, "clearing", { cardTransactionId: first.body.cardTransactionId, amount: 600 }),
      simulate(client, second.id, "authorization", opening(400)),
    ]);
    expect([cleared.status, raced.status]).toEqual([202, 202]);
    expect((await cardTransaction(client, raced.body.cardTransactionId)).status).toBe("AUTHORIZED");
    expect(await balances(client, holder.accountId)).toEqual({ balance: 0, totalBalance: 400 });
  });

  test.each(Array.from({ length: ROUNDS }, (_, i) => i + 1))(
    "returns, reversals, authorizations, clearings, advices, a card PATCH and a deposit at once on one account: all succeed, the ledger and the holds agree (round %i)",
    async () => {
      // Every message takes its locks in one order (card, card transaction, account), so none deadlocks.
      const { holder, cardId } = await fundedCard(server, client, 1_000_000);
      const card2 = (await activeCard(server, client, holder)).id;
      const settled: string[] = [];
      for (const card of [cardId, cardId, card2, card2]) {
        const id = await authorize(client, card, 1_000);
        await clear(client, card, id, 1_000);
        settled.push(id);
      }
      const [s0, s1, s2, s3] = settled as [string, string, string, string];
      const refund1 = (await simulate(client, cardId, "return", { cardTransactionId: s0, amount: 10 })).body;
      const refund2 = (await simulate(client, card2, "return", { cardTransactionId: s2, amount: 10 })).body;
      const open1 = await authorize(client, cardId, 500);
      const open2 = await authorize(client, card2, 500);
      const open3 = await authorize(client, card2, 500);
      const responses = await Promise.all([
        simulate(client, cardId, "return", { cardTransactionId: s0, amount: 100 }),
        simulate(client, cardId, "return", { cardTransactionId: s1, amount: 100 }),
        simulate(client, card2, "return", { cardTransactionId: s2, amount: 100 }),
        simulate(client, card2, "return", { cardTransactionId: s3, amount: 100 }),
        simulate(client, cardId, "return_reversal", { cardTransactionId: refund1.cardTransactionId }),
        simulate(client, card2, "return_reversal", { cardTransactionId: refund2.cardTransactionId }),
        simulate(client, cardId, "authorization", opening(100)),
        simulate(client, card2, "authorization", opening(100)),
        simulate(client, cardId, "financial_authorization", opening(100)),
        simulate(client, card2, "financial_credit_authorization", opening(100)),
        simulate(client, cardId, "clearing", { cardTransactionId: open1, amount: 200 }),
        simulate(client, card2, "authorization_advice", { cardTransactionId: open2, amount: 700 }),
        simulate(client, card2, "clearing", { cardTransactionId: open3, amount: 0 }),
        simulate(client, cardId, "balance_inquiry", { merchant: SHOP }),
        client.patch(`/cards/${card2}`, { maxSpendPerTransaction: 100_000 }),
        client.post(`/sandbox/internal-accounts/${holder.accountId}/fund`, { amount: 5 }),
      ]);
      expect(responses.map((r) => r.status)).toEqual([...Array(14).fill(202), 200, 200]);
      // 1,000,000 - 4,000 cleared + 20 returned - 20 reversed + 400 returned + 5 deposited
      // - 100 financial + 100 financial credit - 200 cleared.
      const account = await balances(client, holder.accountId);
      expect(account.totalBalance).toBe(996_205);
      const [ledger] = await server.db.query<{ sum: number }>(
        "SELECT COALESCE(sum(amount), 0)::int8 AS sum FROM balance_changes WHERE account_id = $1",
        [holder.accountId],
      );
      expect(ledger?.sum).toBe(account.totalBalance);
      const [held] = await server.db.query<{ sum: number }>(
        `SELECT COALESCE(sum(hold_amount), 0)::int8 AS sum FROM card_transactions
         WHERE account_id = $1 AND status IN ('AUTHORIZED', 'PARTIALLY_SETTLED')`,
        [holder.accountId],
      );
      // Holds: open1 300 + open2 700 + the new authorizations 100 + 100.
      expect(held?.sum).toBe(1_200);
      expect(account.balance).toBe(account.totalBalance - 1_200);
    },
  );
});
