import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { activeCard, cardPlatform, fund, newCardholder } from "../cards/helpers.js";
import { balances, opening, simulate } from "../cards/transaction-helpers.js";
import type { TestClient, TestServer } from "../harness.js";
import { startServer } from "../harness.js";
import { sizes, timeoutFor } from "../sizes.js";

// Issue 9 part 4: money under concurrency. On PostgreSQL (DATABASE_URL) the requests really run in
// parallel on the server's connection pool; PGlite is one session and serializes them, where the same
// assertions must hold too. Nothing here measures time.

let server: TestServer;
let client: TestClient;
beforeAll(async () => {
  server = await startServer();
  ({ client } = await cardPlatform(server));
});
afterAll(() => server.close());

/** Σ amount of the account's balance changes and its stored total, straight from the ledger. */
async function ledger(accountId: string): Promise<{ sum: number; total: number; held: number }> {
  const [row] = await server.db.query<{ sum: number; total: number; held: number }>(
    `SELECT (SELECT COALESCE(sum(amount), 0)::int8 FROM balance_changes WHERE account_id = $1) AS sum,
            total_balance AS total, held_amount AS held FROM internal_accounts WHERE id = $1`,
    [accountId],
  );
  if (!row) throw new Error(`no account ${accountId}`);
  return row;
}

/** Runs `count` calls with at most `width` at a time; answers in call order. */
async function inParallel<T>(count: number, width: number, call: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await call(i);
      }
    }),
  );
  return results;
}

describe(`${sizes.racingAuthorizations} concurrent card authorizations against finite sandbox funds`, () => {
  const COUNT = sizes.racingAuthorizations;
  const FUNDS = COUNT * 100;
  const IN_FLIGHT = 200;
  // 100..590 in steps of 10: COUNT of them ask for COUNT × 345 in all, far more than the funds.
  const amountOf = (i: number) => 100 + (i % 50) * 10;
  let outcomes: { amount: number; status: string; reason: string | null }[] = [];
  let observed: number[] = [];
  let accountId: string;

  beforeAll(
    async () => {
      const holder = await newCardholder(client);
      accountId = holder.accountId;
      await fund(client, accountId, FUNDS);
      const cards: string[] = [];
      for (let i = 0; i < 4; i++) cards.push((await activeCard(server, client, holder)).id);
      // The available balance is read again and again while the authorizations race.
      let racing = true;
      const watcher = (async () => {
        while (racing) {
          const res = await client
            .get<{ balance: { amount: number } }>(`/internal-accounts/${accountId}`)
            .catch(() => null); // a kept-alive socket the server just closed: read again
          if (res?.status === 200) observed.push(res.body.balance.amount);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      // All are issued at once; at most IN_FLIGHT connections carry them (the rest wait client-side), which
      // stays under the listen backlog: 1,000 simultaneous connects were reset by the kernel.
      const responses = await inParallel(COUNT, IN_FLIGHT, (i) =>
        simulate(client, cards[i % cards.length] as string, "authorization", opening(amountOf(i))),
      );
      racing = false;
      await watcher;
      for (const res of responses) expect(res.status, res.text).toBe(202);
      const rows = await server.db.query<{ id: string; status: string; card_declined_reason: string | null }>(
        "SELECT id, status, card_declined_reason FROM card_transactions WHERE account_id = $1",
        [accountId],
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      outcomes = responses.map((res, i) => {
        const row = byId.get(res.body.cardTransactionId);
        return {
          amount: amountOf(i),
          status: String(row?.status),
          reason: row?.card_declined_reason ?? null,
        };
      });
      observed = [...observed, (await balances(client, accountId)).balance];
    },
    timeoutFor(COUNT, 40),
  );

  test("every authorization has exactly one row: AUTHORIZED, or DECLINED for INSUFFICIENT_FUNDS", () => {
    expect(outcomes).toHaveLength(COUNT);
    const kinds = new Set(outcomes.map((o) => `${o.status} ${o.reason ?? ""}`.trim()));
    expect([...kinds].sort()).toEqual(["AUTHORIZED", "DECLINED INSUFFICIENT_FUNDS"]);
  });

  test("no overdraft: the approved sum is at most the funds, and the funds are used up to less than the largest request", () => {
    const approved = outcomes.filter((o) => o.status === "AUTHORIZED").reduce((s, o) => s + o.amount, 0);
    expect(approved).toBeLessThanOrEqual(FUNDS);
    // A decline is only right when the remainder cannot cover that request.
    const smallestDeclined = Math.min(
      ...outcomes.filter((o) => o.status === "DECLINED").map((o) => o.amount),
    );
    expect(FUNDS - approved).toBeLessThan(smallestDeclined);
  });

  test("the available balance is never negative, and ends at the funds minus the approved holds", async () => {
    const approved = outcomes.filter((o) => o.status === "AUTHORIZED").reduce((s, o) => s + o.amount, 0);
    expect(observed.length).toBeGreaterThan(1);
    expect(observed.filter((b) => b < 0)).toEqual([]);
    expect(await balances(client, accountId)).toEqual({ balance: FUNDS - approved, totalBalance: FUNDS });
  });

  test("the balance is the sum of its changes, and the held amount is the sum of the open holds", async () => {
    const approved = outcomes.filter((o) => o.status === "AUTHORIZED").reduce((s, o) => s + o.amount, 0);
    expect(await ledger(accountId)).toEqual({ sum: FUNDS, total: FUNDS, held: approved });
  });
});

describe("concurrent transfers in both directions between the same two accounts", () => {
  test("no deadlock and no lost update: all succeed and the final balances are the initial ones plus the net", async () => {
    const a = (await newCardholder(client)).accountId;
    const b = (await newCardholder(client)).accountId;
    await fund(client, a, 1_000_000);
    await fund(client, b, 1_000_000);
    const transfer = (from: string, to: string, amount: number) =>
      client.post<{ status: string; totalSendingAmount: number; totalReceivingAmount: number }>("/quotes", {
        source: { sourceType: "ACCOUNT", accountId: from },
        destination: { destinationType: "ACCOUNT", accountId: to },
        lockedCurrencySide: "SENDING",
        lockedCurrencyAmount: amount,
        immediatelyExecute: true,
      });
    const plan = Array.from({ length: 200 }, (_, i) => ({ forward: i % 2 === 0, amount: 100 + i }));
    const responses = await Promise.all(
      plan.map((p) => (p.forward ? transfer(a, b, p.amount) : transfer(b, a, p.amount))),
    );
    for (const res of responses) expect(res.status, res.text).toBe(201);
    let netA = 0;
    let netB = 0;
    responses.forEach((res, i) => {
      const { totalSendingAmount: sent, totalReceivingAmount: received } = res.body;
      if (plan[i]?.forward) [netA, netB] = [netA - sent, netB + received];
      else [netA, netB] = [netA + received, netB - sent];
    });
    expect(netA + netB).toBeLessThanOrEqual(0);
    expect((await balances(client, a)).totalBalance).toBe(1_000_000 + netA);
    expect((await balances(client, b)).totalBalance).toBe(1_000_000 + netB);
    expect(await ledger(a)).toEqual({ sum: 1_000_000 + netA, total: 1_000_000 + netA, held: 0 });
    expect(await ledger(b)).toEqual({ sum: 1_000_000 + netB, total: 1_000_000 + netB, held: 0 });
  }, 60_000);
});
