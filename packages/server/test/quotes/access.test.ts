import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { fund, newAccount, type Quote, tokenWith, transfer } from "./helpers.js";

let server: TestServer;
let a: string;
let b: string;
beforeAll(async () => {
  server = await startServer();
  a = await newAccount(server);
  b = await newAccount(server);
});
afterAll(() => server.close());

describe("quotes: 404s, tenancy and permissions", () => {
  test("GET an unknown, malformed or another platform's quote -> 404 QUOTE_NOT_FOUND, the same answer", async () => {
    const other = await server.newPlatform();
    const mine = await server.client.post<Quote>("/quotes", transfer(a, b, 100));
    for (const id of [mine.body.id, "Quote:01a2031b-3af6-74b7-af52-45f72eabe452", "Quote:nope", "nope"]) {
      for (const path of [`/quotes/${id}`, `/quotes/${id}/execute`]) {
        const res = path.endsWith("execute")
          ? await server.client.post(path, undefined, { auth: other })
          : await server.client.get(path, { auth: other });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: "QUOTE_NOT_FOUND", reason: `No quote ${id}.` });
      }
    }
    expect((await server.client.get<Quote>(`/quotes/${mine.body.id}`)).body.status).toBe("PENDING");
  });

  test("another platform's account as source or destination -> 404 ACCOUNT_NOT_FOUND, like an unknown id", async () => {
    const other = await server.newPlatform();
    const theirs = await newAccount(server, { auth: other });
    const unknown = "InternalAccount:01a2031b-3af6-74b7-af52-45f72eabe452";
    for (const [from, to, missing] of [
      [theirs, b, theirs],
      [a, theirs, theirs],
      [unknown, b, unknown],
    ] as const) {
      const res = await server.client.post("/quotes", transfer(from, to, 100));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "ACCOUNT_NOT_FOUND", reason: `No internal account ${missing}.` });
    }
  });

  test("a VIEW-only token -> 403 FORBIDDEN on POST /quotes and execute, but may read a quote", async () => {
    const viewer = await tokenWith(server, ["VIEW"]);
    const quote = await server.client.post<Quote>("/quotes", transfer(a, b, 100));
    const create = await server.client.post("/quotes", transfer(a, b, 100), { auth: viewer });
    expect(create.status).toBe(403);
    expect(create.body).toEqual({
      code: "FORBIDDEN",
      reason: "This operation needs the TRANSACT permission.",
    });
    const execute = await server.client.post(`/quotes/${quote.body.id}/execute`, undefined, { auth: viewer });
    expect(execute.status).toBe(403);
    expect((await server.client.get(`/quotes/${quote.body.id}`, { auth: viewer })).status).toBe(200);
  });

  test("a MANAGE token without TRANSACT -> 403 FORBIDDEN on POST /quotes", async () => {
    const manager = await tokenWith(server, ["VIEW", "MANAGE"]);
    const res = await server.client.post("/quotes", transfer(a, b, 100), { auth: manager });
    expect(res.status).toBe(403);
  });

  test("a TRANSACT token may create and execute quotes", async () => {
    const sender = await newAccount(server);
    await fund(server, sender, 100);
    const transactor = await tokenWith(server, ["TRANSACT"]);
    const res = await server.client.post<Quote>(
      "/quotes",
      transfer(sender, b, 100, { immediatelyExecute: true }),
      {
        auth: transactor,
      },
    );
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("COMPLETED");
  });
});
