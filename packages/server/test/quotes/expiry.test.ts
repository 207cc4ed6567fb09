import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Credentials, startServer, type TestServer } from "../harness.js";
import { balanceOf, fund, newAccount, type Quote, transfer } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** A fresh platform (its clock only moves forward) with a funded sender and a receiver. */
async function setup(): Promise<{ auth: Credentials; from: string; to: string; quote: Quote }> {
  const auth = await server.newPlatform();
  const from = await newAccount(server, { auth });
  const to = await newAccount(server, { auth });
  await fund(server, from, 10_000, auth);
  const quote = await server.client.post<Quote>("/quotes", transfer(from, to, 1_000), { auth });
  expect(quote.status).toBe(201);
  return { auth, from, to, quote: quote.body };
}

const advance = (auth: Credentials, to: number) =>
  server.client.post("/sandbox/clock/advance", { to: new Date(to).toISOString() }, { auth });

describe("quote expiry: 5 minutes after creation, on the platform's clock", () => {
  test("execute just before expiresAt -> 200 COMPLETED", async () => {
    const { auth, quote } = await setup();
    await advance(auth, Date.parse(quote.expiresAt) - 10_000);
    const res = await server.client.post<Quote>(`/quotes/${quote.id}/execute`, undefined, { auth });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("COMPLETED");
  });

  test("execute at expiresAt -> 400 QUOTE_EXPIRED, the quote becomes EXPIRED and no money moves", async () => {
    const { auth, from, quote } = await setup();
    await advance(auth, Date.parse(quote.expiresAt));
    const res = await server.client.post(`/quotes/${quote.id}/execute`, undefined, { auth });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "QUOTE_EXPIRED",
      reason: `Quote ${quote.id} expired at ${quote.expiresAt}; request a new one.`,
    });
    const [row] = await server.db.query<{ status: string }>("SELECT status FROM quotes WHERE id = $1", [
      quote.id,
    ]);
    expect(row?.status).toBe("EXPIRED");
    expect((await server.client.get<Quote>(`/quotes/${quote.id}`, { auth })).body.status).toBe("EXPIRED");
    expect(await balanceOf(server, from, auth)).toBe(10_000);
    expect(await server.db.query("SELECT id FROM transactions WHERE quote_id = $1", [quote.id])).toEqual([]);
  });

  test("an EXPIRED quote stays expired: executing again -> 400 QUOTE_EXPIRED", async () => {
    const { auth, quote } = await setup();
    await advance(auth, Date.parse(quote.expiresAt) + 60_000);
    expect((await server.client.post(`/quotes/${quote.id}/execute`, undefined, { auth })).status).toBe(400);
    const again = await server.client.post(`/quotes/${quote.id}/execute`, undefined, { auth });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: "QUOTE_EXPIRED" });
  });

  test("a PENDING quote past expiresAt reads as EXPIRED before any execute", async () => {
    const { auth, quote } = await setup();
    await advance(auth, Date.parse(quote.expiresAt) + 1);
    const res = await server.client.get<Quote>(`/quotes/${quote.id}`, { auth });
    expect(res.body).toEqual({ ...quote, status: "EXPIRED" });
  });

  test("an executed quote does not expire: execute after expiresAt -> 409 CONFLICT, GET stays COMPLETED", async () => {
    const { auth, quote } = await setup();
    expect((await server.client.post(`/quotes/${quote.id}/execute`, undefined, { auth })).status).toBe(200);
    await advance(auth, Date.parse(quote.expiresAt) + 1);
    expect((await server.client.post(`/quotes/${quote.id}/execute`, undefined, { auth })).status).toBe(409);
    expect((await server.client.get<Quote>(`/quotes/${quote.id}`, { auth })).body.status).toBe("COMPLETED");
  });

  test("quote timestamps read the platform's clock", async () => {
    const auth = await server.newPlatform();
    await advance(auth, Date.parse("2031-03-01T09:00:00.000Z"));
    const from = await newAccount(server, { auth });
    const to = await newAccount(server, { auth });
    const res = await server.client.post<Quote>("/quotes", transfer(from, to, 1), { auth });
    expect(res.body.createdAt.startsWith("2031-03-01T09:0")).toBe(true);
  });
});
