import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../../server/test/harness.js";
import { type Customer, PaysvcClient } from "../src/index.js";

let server: TestServer;
let paysvc: PaysvcClient;
beforeAll(async () => {
  server = await startServer();
  paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...server.platform });
});
afterAll(() => server.close());

describe("customers through the SDK", () => {
  test("create returns the Customer with its generated id, UNVERIFIED status and the request id", async () => {
    const customer = await paysvc.customers.create({
      customerType: "INDIVIDUAL",
      platformCustomerId: "sdk-create-1",
      fullName: "Ada Lovelace",
      email: "ada@example.com",
    });
    expect(customer).toMatchObject({
      customerType: "INDIVIDUAL",
      platformCustomerId: "sdk-create-1",
      fullName: "Ada Lovelace",
      kycStatus: "UNVERIFIED",
      isDeleted: false,
      agreementConsents: [],
    });
    expect(customer.id).toMatch(/^Customer:[0-9a-f-]{36}$/);
    expect(customer.lastResponse).toEqual({ requestId: expect.stringMatching(/^req_/), status: 201 });
  });

  test("lastResponse is not part of the body: not enumerable, not serialized", async () => {
    const customer = await paysvc.customers.create({ customerType: "BUSINESS" });
    expect(Object.keys(customer)).not.toContain("lastResponse");
    expect(JSON.parse(JSON.stringify(customer))).not.toHaveProperty("lastResponse");
    expect(customer.lastResponse.requestId).toMatch(/^req_/);
  });

  test("get encodes the ':' of the id and returns the same customer", async () => {
    const created = await paysvc.customers.create({ customerType: "INDIVIDUAL", fullName: "Grace Hopper" });
    const fetched = await paysvc.customers.get(created.id);
    expect(fetched).toEqual(created);
    expect(fetched.lastResponse.status).toBe(200);
  });

  test("update merges the given fields and keeps the others", async () => {
    const created = await paysvc.customers.create({ customerType: "INDIVIDUAL", fullName: "Alan Turing" });
    const updated = await paysvc.customers.update(created.id, { region: "GB", phoneNumber: "+441632960000" });
    expect(updated).toMatchObject({ id: created.id, fullName: "Alan Turing", region: "GB" });
    expect(updated.phoneNumber).toBe("+441632960000");
  });

  test("list filters by platformCustomerId and returns the page shape", async () => {
    const created = await paysvc.customers.create({
      customerType: "INDIVIDUAL",
      platformCustomerId: "sdk-list-1",
    });
    const page = await paysvc.customers.list({ platformCustomerId: "sdk-list-1" });
    expect(page).toEqual({ data: [created], hasMore: false, totalCount: 1 });
    expect(page.lastResponse.requestId).toMatch(/^req_/);
  });

  test("listAll follows nextCursor across pages until hasMore is false", async () => {
    const own = await server.newPlatform();
    const tenant = new PaysvcClient({ baseUrl: server.baseUrl, ...own });
    const created: Customer[] = [];
    for (let i = 0; i < 5; i++) {
      created.push(
        await tenant.customers.create({ customerType: "INDIVIDUAL", platformCustomerId: `page-${i}` }),
      );
    }
    const first = await tenant.customers.list({ limit: 2, sortOrder: "asc" });
    expect(first).toMatchObject({ hasMore: true, totalCount: 5, nextCursor: expect.any(String) });

    const seen: string[] = [];
    for await (const customer of tenant.customers.listAll({ limit: 2, sortOrder: "asc" }))
      seen.push(customer.id);
    expect(seen).toEqual(created.map((c) => c.id));
  });

  test("delete answers 200 with the deleted Customer (isDeleted true) and a request id", async () => {
    const created = await paysvc.customers.create({
      customerType: "INDIVIDUAL",
      platformCustomerId: "sdk-del-1",
    });
    const deleted = await paysvc.customers.delete(created.id);
    expect(deleted).toMatchObject({ id: created.id, platformCustomerId: "sdk-del-1", isDeleted: true });
    expect(deleted.lastResponse).toEqual({ requestId: expect.stringMatching(/^req_/), status: 200 });
    expect((await paysvc.customers.get(created.id)).isDeleted).toBe(true);
  });

  test("agreements and the deprecated end-user terms name the same current version", async () => {
    const agreements = await paysvc.customers.listAgreements();
    const terms = await paysvc.customers.getEndUserTerms();
    const endUser = agreements.data.find((a) => a.type === "SERVICE_END_USER_TERMS");
    expect(endUser).toEqual({ type: "SERVICE_END_USER_TERMS", version: terms.version, url: terms.url });
  });
});

describe("internal accounts through the SDK", () => {
  test("a new customer's USD INTERNAL_FIAT account is listed, and get reads it by its ':' id", async () => {
    const customer = await paysvc.customers.create({ customerType: "INDIVIDUAL" });
    const page = await paysvc.internalAccounts.listForCustomers({
      customerId: customer.id,
      type: "INTERNAL_FIAT",
    });
    const usd = page.data.find((a) => a.balance.currency.code === "USD");
    expect(usd).toMatchObject({ customerId: customer.id, type: "INTERNAL_FIAT" });
    if (!usd) return;
    expect(await paysvc.internalAccounts.get(usd.id)).toEqual(usd);
    const all = [];
    for await (const account of paysvc.internalAccounts.listAllForCustomers({ customerId: customer.id })) {
      all.push(account);
    }
    expect(all.map((a) => a.id)).toContain(usd.id);
  });

  test("the sandbox platform's own USD account is listed without pagination fields", async () => {
    const accounts = await paysvc.internalAccounts.listPlatform({ currency: "USD" });
    expect(Object.keys(accounts)).toEqual(["data"]);
    expect(accounts.data).toHaveLength(1);
    expect(accounts.data[0]?.customerId).toBeUndefined();
  });
});
