import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { balanceOf, fund, newAccount, type Quote, transfer } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function funded(amount: number): Promise<{ from: string; to: string }> {
  const from = await newAccount(server);
  const to = await newAccount(server);
  if (amount > 0) await fund(server, from, amount);
  return { from, to };
}

describe("execution failures", () => {
  test("immediatelyExecute with insufficient funds -> 400 INSUFFICIENT_FUNDS and nothing is created", async () => {
    const { from, to } = await funded(100);
    const count = async () =>
      (
        await server.db.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM quotes WHERE platform_id = $1) + (SELECT count(*) FROM transactions WHERE platform_id = $1)
             + (SELECT count(*) FROM balance_changes WHERE platform_id = $1) + (SELECT count(*) FROM webhook_events WHERE platform_id = $1) AS n`,
          [server.platform.platformId],
        )
      )[0]?.n;
    const before = await count();
    const res = await server.client.post("/quotes", transfer(from, to, 200, { immediatelyExecute: true }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INSUFFICIENT_FUNDS",
      reason: `Account ${from} has 100 available; 200 needed.`,
    });
    expect(await count()).toBe(before);
    expect(await balanceOf(server, from)).toBe(100);
  });

  test("execute with insufficient funds -> 400 INSUFFICIENT_FUNDS, the quote stays PENDING and executes once funded", async () => {
    const { from, to } = await funded(0);
    const quote = await server.client.post<Quote>("/quotes", transfer(from, to, 1_000));
    const res = await server.client.post(`/quotes/${quote.body.id}/execute`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INSUFFICIENT_FUNDS",
      reason: `Account ${from} has 0 available; 1000 needed.`,
    });
    expect((await server.client.get<Quote>(`/quotes/${quote.body.id}`)).body.status).toBe("PENDING");
    expect(await server.db.query("SELECT id FROM transactions WHERE quote_id = $1", [quote.body.id])).toEqual(
      [],
    );
    await fund(server, from, 1_000);
    expect((await server.client.post(`/quotes/${quote.body.id}/execute`)).status).toBe(200);
  });

  test("executing an executed quote -> 409 CONFLICT and nothing moves twice", async () => {
    const { from, to } = await funded(10_000);
    const quote = await server.client.post<Quote>(
      "/quotes",
      transfer(from, to, 1_000, { immediatelyExecute: true }),
    );
    const again = await server.client.post(`/quotes/${quote.body.id}/execute`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      code: "CONFLICT",
      reason: `Quote ${quote.body.id} is COMPLETED; it was already executed.`,
    });
    expect(await balanceOf(server, from)).toBe(9_000);
    expect(
      await server.db.query("SELECT id FROM transactions WHERE quote_id = $1", [quote.body.id]),
    ).toHaveLength(2);
  });

  test("execute retried with the same Idempotency-Key replays the first 200", async () => {
    const { from, to } = await funded(10_000);
    const quote = await server.client.post<Quote>("/quotes", transfer(from, to, 1_000));
    const headers = { "idempotency-key": `execute-${quote.body.id}` };
    const first = await server.client.post(`/quotes/${quote.body.id}/execute`, undefined, { headers });
    const second = await server.client.post(`/quotes/${quote.body.id}/execute`, undefined, { headers });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await balanceOf(server, from)).toBe(9_000);
  });

  test("an account that is not ACTIVE -> 409 CONFLICT", async () => {
    const { from, to } = await funded(10_000);
    const quote = await server.client.post<Quote>("/quotes", transfer(from, to, 1_000));
    await server.db.query("UPDATE internal_accounts SET status = 'FROZEN' WHERE id = $1", [to]);
    const reason = `Account ${to} is FROZEN; only ACTIVE accounts send or receive transfers.`;
    const execute = await server.client.post(`/quotes/${quote.body.id}/execute`);
    expect(execute.status).toBe(409);
    expect(execute.body).toEqual({ code: "CONFLICT", reason });
    const create = await server.client.post("/quotes", transfer(from, to, 1_000));
    expect(create.body).toEqual({ code: "CONFLICT", reason });
    expect(await balanceOf(server, from)).toBe(10_000);
  });
});
