import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { limitedPlatform, pair, volumeOf } from "./daily-volume-helpers.js";
import { balanceOf, ledgerInvariantHolds, type Quote, retryCounter, transfer } from "./helpers.js";

let server: TestServer;
const transactions = retryCounter();
beforeAll(async () => {
  server = await startServer({ wrapDb: transactions.wrap });
});
afterAll(() => server.close());

// Noon in Chicago, far from midnight: every execution of a test falls on this Chicago day.
const NOON = "2027-01-13T18:00:00.000Z";
const TODAY = "2027-01-13";

async function platformAtNoon(limit: number): Promise<TestClient> {
  const client = await limitedPlatform(server, limit);
  expect((await client.post("/sandbox/clock/advance", { to: NOON })).status).toBe(200);
  return client;
}

/** Distinct sender/receiver pairs, so only the day's counter row is shared between the executions. */
async function pairs(client: TestClient, n: number, funds: number) {
  return Promise.all(Array.from({ length: n }, () => pair(server, client, funds)));
}

describe("concurrent executions (the counter row lock)", () => {
  test("concurrent immediate executions never exceed the daily limit together", async () => {
    const client = await platformAtNoon(10_000);
    const accounts = await pairs(client, 16, 1_000);
    const { result, retries } = await transactions.measure(() =>
      Promise.all(
        accounts.map(({ from, to }) =>
          client.post("/quotes", transfer(from, to, 1_000, { immediatelyExecute: true })),
        ),
      ),
    );
    const statuses = result.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(10).fill(201), ...Array(6).fill(429)]);
    expect(retries).toBe(0);
    expect(await volumeOf(server, client, TODAY)).toBe(10_000);
    const sent = await Promise.all(accounts.map(({ from }) => balanceOf(server, from, client.credentials)));
    expect(sent.filter((b) => b === 0)).toHaveLength(10);
    await ledgerInvariantHolds(server);
  });

  test("concurrent executes of PENDING quotes never exceed the daily limit together", async () => {
    const client = await platformAtNoon(5_000);
    const accounts = await pairs(client, 12, 1_000);
    const quotes = await Promise.all(
      accounts.map(({ from, to }) => client.post<Quote>("/quotes", transfer(from, to, 1_000))),
    );
    const { result, retries } = await transactions.measure(() =>
      Promise.all(quotes.map((q) => client.post(`/quotes/${q.body.id}/execute`))),
    );
    expect(result.map((r) => r.status).sort()).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
    expect(retries).toBe(0);
    expect(await volumeOf(server, client, TODAY)).toBe(5_000);
    await ledgerInvariantHolds(server);
  });
});
