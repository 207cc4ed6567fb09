import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";

type Customer = Record<string, unknown> & {
  id: string;
  createdAt: string;
  updatedAt: string;
  isDeleted: boolean;
};
type Page = { data: Customer[]; hasMore: boolean; nextCursor?: string; totalCount: number };
type ErrorBody = {
  code: string;
  reason: string;
  details?: { errors: { field: string; constraint?: unknown; message: string }[] };
};

let server: TestServer;
let client: TestClient;
// One platform of this file's own, so every list below holds only these customers.
let ada: Customer;
let grace: Customer;
let acme: Customer;
let gone: Customer;
let t0: string;
let t1: string;
let t2: string;

/** Moves this platform's sandbox clock one hour on, so the next writes carry later timestamps. */
async function hourLater(): Promise<string> {
  const now = (await client.get<{ now: string }>("/sandbox/clock")).body.now;
  const to = new Date(Date.parse(now) + 3_600_000).toISOString();
  expect((await client.post("/sandbox/clock/advance", { to })).status).toBe(200);
  return to;
}

const ids = (page: Page) => page.data.map((c) => c.id).sort();
const list = (query: string) => client.get<Page & ErrorBody>(`/customers?${query}`);

beforeAll(async () => {
  server = await startServer();
  client = server.client.as(await server.newPlatform());
  const create = async (body: Record<string, unknown>) =>
    (await client.post<Customer>("/customers", body)).body;
  t0 = (await client.get<{ now: string }>("/sandbox/clock")).body.now;
  ada = await create({
    customerType: "INDIVIDUAL",
    platformCustomerId: "ada",
    region: "GB",
    currencies: ["GBP", "USD"],
    umaAddress: "$ada@lovelace.example",
  });
  gone = await create({ customerType: "INDIVIDUAL", platformCustomerId: "gone", region: "GB" });
  t1 = await hourLater();
  grace = await create({
    customerType: "INDIVIDUAL",
    platformCustomerId: "grace",
    region: "US",
    currencies: ["USD"],
  });
  acme = await create({ customerType: "BUSINESS", platformCustomerId: "acme", region: "US" });
  t2 = await hourLater();
  ada = (await client.patch<Customer>(`/customers/${ada.id}`, { fullName: "Ada King" })).body;
  gone = (await client.delete<Customer>(`/customers/${gone.id}`)).body;
});
afterAll(() => server.close());

describe("GET /customers filters (the hosted API's parameters)", () => {
  test("deleted customers are left out unless isIncludingDeleted=true", async () => {
    expect(ids((await list("")).body)).toEqual([ada.id, grace.id, acme.id].sort());
    expect(ids((await list("isIncludingDeleted=false")).body)).toEqual([ada.id, grace.id, acme.id].sort());
    const all = await list("isIncludingDeleted=true");
    expect(ids(all.body)).toEqual([ada.id, gone.id, grace.id, acme.id].sort());
    expect(all.body.totalCount).toBe(4);
    expect(all.body.data.find((c) => c.id === gone.id)?.isDeleted).toBe(true);
  });

  test("region matches the customer's region", async () => {
    expect(ids((await list("region=US")).body)).toEqual([grace.id, acme.id].sort());
    expect(ids((await list("region=GB&isIncludingDeleted=true")).body)).toEqual([ada.id, gone.id].sort());
  });

  test("currency matches customers whose currencies include it", async () => {
    expect(ids((await list("currency=USD")).body)).toEqual([ada.id, grace.id].sort());
    expect(ids((await list("currency=GBP")).body)).toEqual([ada.id]);
    expect((await list("currency=EUR")).body.totalCount).toBe(0);
  });

  test("umaAddress matches the address without regard to case", async () => {
    expect(ids((await list(`umaAddress=${encodeURIComponent("$ADA@Lovelace.example")}`)).body)).toEqual([
      ada.id,
    ]);
  });

  test("createdAfter and createdBefore are inclusive bounds on createdAt", async () => {
    expect(ids((await list(`createdAfter=${t1}`)).body)).toEqual([grace.id, acme.id].sort());
    expect(ids((await list(`createdBefore=${encodeURIComponent(t1)}`)).body)).toEqual([ada.id]);
    expect(
      ids((await list(`createdAfter=${grace.createdAt}&createdBefore=${grace.createdAt}`)).body),
    ).toEqual([grace.id]);
    expect(ids((await list(`createdAfter=${t0}`)).body)).toHaveLength(3);
  });

  test("updatedAfter and updatedBefore are inclusive bounds on updatedAt", async () => {
    expect(ids((await list(`updatedAfter=${t2}`)).body)).toEqual([ada.id]);
    expect(ids((await list(`updatedBefore=${t2}`)).body)).toEqual([grace.id, acme.id].sort());
    expect(ids((await list(`updatedAfter=${t2}&isIncludingDeleted=true`)).body)).toEqual(
      [ada.id, gone.id].sort(),
    );
  });

  test("filters combine with the existing ones and with pagination; a cursor keeps its filters", async () => {
    expect(ids((await list("customerType=BUSINESS&region=US")).body)).toEqual([acme.id]);
    const first = await list("region=US&limit=1");
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 2 });
    const second = await list(`region=US&limit=1&cursor=${first.body.nextCursor}`);
    expect([...ids(first.body), ...ids(second.body)].sort()).toEqual([grace.id, acme.id].sort());
    const foreign = await list(`region=GB&limit=1&cursor=${first.body.nextCursor}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.details?.errors).toEqual([
      { field: "cursor", message: "is not a cursor returned by this list" },
    ]);
  });

  test("each bad filter value gets its own FieldError, all in one 400 INVALID_INPUT", async () => {
    const res = await list(
      "region=USA&currency=usd&umaAddress=ada&createdAfter=yesterday&createdBefore=2026-01-01T00:00:00&updatedAfter=2026-13-01T00:00:00Z&updatedBefore=1&isIncludingDeleted=maybe",
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    const errors = res.body.details?.errors ?? [];
    expect(errors.map((e) => e.field).sort()).toEqual(
      [
        "region",
        "currency",
        "umaAddress",
        "createdAfter",
        "createdBefore",
        "updatedAfter",
        "updatedBefore",
        "isIncludingDeleted",
      ].sort(),
    );
    expect(errors).toEqual(
      expect.arrayContaining([
        {
          field: "region",
          constraint: { format: "iso3166-1-alpha-2" },
          message: "must be a valid iso3166-1-alpha-2",
        },
        { field: "createdAfter", constraint: { format: "date-time" }, message: "must be a valid date-time" },
        {
          field: "currency",
          constraint: { pattern: "^[A-Z]{3,5}$" },
          message: "does not match the required pattern",
        },
      ]),
    );
  });
});

describe("DELETE /customers/{customerId} (the hosted API's status and body)", () => {
  test("answers 200 with the deleted Customer: isDeleted true, updatedAt the deletion time", async () => {
    const created = (
      await client.post<Customer>("/customers", { customerType: "INDIVIDUAL", fullName: "Del" })
    ).body;
    const res = await client.delete<Customer>(`/customers/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, isDeleted: true, updatedAt: expect.any(String) });
    expect((await client.get<Customer>(`/customers/${created.id}`)).body).toEqual(res.body);
  });

  test("deleting a deleted customer again is 409 CONFLICT", async () => {
    const res = await client.delete<ErrorBody>(`/customers/${gone.id}`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
  });

  test("another platform's customer is 404 CUSTOMER_NOT_FOUND and stays as it was", async () => {
    const res = await server.client.delete<ErrorBody>(`/customers/${grace.id}`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("CUSTOMER_NOT_FOUND");
    expect((await client.get<Customer>(`/customers/${grace.id}`)).body.isDeleted).toBe(false);
  });
});
