import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import {
  balanceOf,
  fund,
  ledgerInvariantHolds,
  newAccount,
  type Quote,
  retryCounter,
  transfer,
} from "./helpers.js";

let server: TestServer;
const transactions = retryCounter();
beforeAll(async () => {
  server = await startServer({ wrapDb: transactions.wrap });
});
afterAll(() => server.close());

describe("locking", () => {
  test("concurrent executes of one quote: exactly one 200, the others 409 CONFLICT, money moves once", async () => {
    const from = await newAccount(server);
    const to = await newAccount(server);
    await fund(server, from, 10_000);
    const quote = await server.client.post<Quote>("/quotes", transfer(from, to, 1_000));
    const results = await Promise.all(
      Array.from({ length: 8 }, () => server.client.post(`/quotes/${quote.body.id}/execute`)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(await balanceOf(server, from)).toBe(9_000);
    expect(await balanceOf(server, to)).toBe(1_000);
    const rows = await server.db.query("SELECT id FROM transactions WHERE quote_id = $1", [quote.body.id]);
    expect(rows).toHaveLength(2);
    const changes = await server.db.query<{ n: number }>(
      "SELECT count(*) AS n FROM balance_changes WHERE account_id IN ($1, $2)",
      [from, to],
    );
    expect(changes[0]?.n).toBe(3);
    await ledgerInvariantHolds(server);
  });

  test("concurrent transfers in both directions between two accounts: no deadlock, balances exact", async () => {
    const a = await newAccount(server);
    const b = await newAccount(server);
    await fund(server, a, 10_000);
    await fund(server, b, 10_000);
    const { result, retries } = await transactions.measure(() =>
      Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          server.client.post<Quote>(
            "/quotes",
            i % 2 === 0
              ? transfer(a, b, 7, { immediatelyExecute: true })
              : transfer(b, a, 3, { immediatelyExecute: true }),
          ),
        ),
      ),
    );
    expect(result.map((r) => r.status)).toEqual(Array(40).fill(201));
    expect(retries).toBe(0);
    expect(await balanceOf(server, a)).toBe(10_000 - 20 * 7 + 20 * 3);
    expect(await balanceOf(server, b)).toBe(10_000 + 20 * 7 - 20 * 3);
    await ledgerInvariantHolds(server);
  });

  test("concurrent executes of opposite quotes: no deadlock, balances exact", async () => {
    const a = await newAccount(server);
    const b = await newAccount(server);
    await fund(server, a, 1_000);
    await fund(server, b, 1_000);
    const quotes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.client.post<Quote>("/quotes", i % 2 === 0 ? transfer(a, b, 11) : transfer(b, a, 5)),
      ),
    );
    const { result, retries } = await transactions.measure(() =>
      Promise.all(quotes.map((q) => server.client.post(`/quotes/${q.body.id}/execute`))),
    );
    expect(result.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(retries).toBe(0);
    expect(await balanceOf(server, a)).toBe(1_000 - 10 * 11 + 10 * 5);
    expect(await balanceOf(server, b)).toBe(1_000 + 10 * 11 - 10 * 5);
    await ledgerInvariantHolds(server);
  });
});
