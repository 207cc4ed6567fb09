import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";

type Token = { id: string; name: string; createdAt: string; updatedAt: string };
type Page = { data: Token[]; hasMore: boolean; nextCursor?: string; totalCount: number };
type ErrorBody = {
  code: string;
  details?: { errors: { field: string; constraint?: unknown; message: string }[] };
};

let server: TestServer;
let client: TestClient;
let startup: string;
let reader: Token;
let writer: Token;
let t1: string;

beforeAll(async () => {
  server = await startServer();
  const platform = await server.newPlatform();
  client = server.client.as(platform);
  startup = platform.tokenId;
  reader = (await client.post<Token>("/tokens", { name: "reader", permissions: ["VIEW"] })).body;
  const now = (await client.get<{ now: string }>("/sandbox/clock")).body.now;
  t1 = new Date(Date.parse(now) + 3_600_000).toISOString();
  expect((await client.post("/sandbox/clock/advance", { to: t1 })).status).toBe(200);
  writer = (await client.post<Token>("/tokens", { name: "writer", permissions: ["TRANSACT"] })).body;
});
afterAll(() => server.close());

const ids = (page: Page) => page.data.map((t) => t.id).sort();
const list = (query: string) => client.get<Page & ErrorBody>(`/tokens?${query}`);

describe("GET /tokens filters (the hosted API's parameters)", () => {
  test("name matches the token's exact name", async () => {
    expect(ids((await list("name=reader")).body)).toEqual([reader.id]);
    expect((await list("name=read")).body.totalCount).toBe(0);
  });

  test("createdAfter and createdBefore are inclusive bounds on createdAt", async () => {
    expect(ids((await list(`createdAfter=${t1}`)).body)).toEqual([writer.id]);
    expect(ids((await list(`createdBefore=${reader.createdAt}`)).body)).toEqual([startup, reader.id].sort());
    expect(
      ids((await list(`createdAfter=${reader.createdAt}&createdBefore=${reader.createdAt}`)).body),
    ).toEqual([reader.id]);
  });

  test("updatedAfter and updatedBefore are inclusive bounds on updatedAt", async () => {
    expect(ids((await list(`updatedAfter=${writer.updatedAt}`)).body)).toEqual([writer.id]);
    expect(ids((await list(`updatedBefore=${t1}&name=reader`)).body)).toEqual([reader.id]);
  });

  test("a cursor is valid only with the filters it was issued for", async () => {
    const first = await list(`createdBefore=${t1}&limit=1`);
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 2 });
    const next = await list(`createdBefore=${t1}&limit=1&cursor=${first.body.nextCursor}`);
    expect([...ids(first.body), ...ids(next.body)].sort()).toEqual([startup, reader.id].sort());
    expect((await list(`limit=1&cursor=${first.body.nextCursor}`)).status).toBe(400);
  });

  test("each bad filter value gets its own FieldError, all in one 400 INVALID_INPUT", async () => {
    const res = await list(
      `name=&createdAfter=today&createdBefore=2026-01-01&updatedAfter=x&updatedBefore=2026-01-01T00:00:00`,
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors?.map((e) => e.field).sort()).toEqual(
      ["name", "createdAfter", "createdBefore", "updatedAfter", "updatedBefore"].sort(),
    );
    expect(res.body.details?.errors).toEqual(
      expect.arrayContaining([
        { field: "createdAfter", constraint: { format: "date-time" }, message: "must be a valid date-time" },
      ]),
    );
  });

  test("another platform's tokens never match a filter", async () => {
    const other = server.client.as(await server.newPlatform());
    expect((await other.get<Page>("/tokens?name=reader")).body.totalCount).toBe(0);
  });
});
