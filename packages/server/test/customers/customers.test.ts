import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";

type Customer = Record<string, unknown> & { id: string; kycStatus: string };
type ErrorBody = {
  code: string;
  reason: string;
  details?: { errors: { field: string; constraint?: unknown; message: string }[] };
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("POST /customers", () => {
  test("creates an individual: 201, Customer:<uuid>, UNVERIFIED, echoed fields, generated umaAddress, empty consents", async () => {
    const res = await server.client.post<Customer>("/customers", {
      customerType: "INDIVIDUAL",
      platformCustomerId: "user-1",
      fullName: "Ada Lovelace",
      birthDate: "1815-12-10",
      nationality: "GB",
      email: "ada@example.com",
      phoneNumber: "+14155550123",
      region: "US",
      address: { line1: "1 Main St", city: "Austin", state: "TX", postalCode: "78701", country: "US" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      customerType: "INDIVIDUAL",
      platformCustomerId: "user-1",
      kycStatus: "UNVERIFIED",
      isDeleted: false,
      fullName: "Ada Lovelace",
      birthDate: "1815-12-10",
      email: "ada@example.com",
      agreementConsents: [],
      address: { line1: "1 Main St", city: "Austin", state: "TX", postalCode: "78701", country: "US" },
    });
    expect(res.body.id).toMatch(/^Customer:[0-9a-f-]{36}$/);
    // At the platform's default UMA domain: the last 12 hex digits of its id under the public host.
    const label = server.platform.platformId.replace(/-/g, "").slice(-12);
    expect(res.body.umaAddress).toMatch(new RegExp(`^\\$[0-9a-f]{12}@${label}\\.localhost$`));
    expect(res.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const read = await server.client.get<Customer>(`/customers/${res.body.id}`);
    expect(read.body).toEqual(res.body);
  });

  test("creates a business with the hosted API's businessInfo; kybStatus mirrors kycStatus", async () => {
    const res = await server.client.post<Customer>("/customers", {
      customerType: "BUSINESS",
      businessInfo: { legalName: "Acme LLC", registrationNumber: "REG-1", country: "US", entityType: "LLC" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      customerType: "BUSINESS",
      businessInfo: { legalName: "Acme LLC", country: "US", entityType: "LLC" },
      kycStatus: "UNVERIFIED",
      kybStatus: "UNVERIFIED",
    });
  });

  test("a create with three bad fields lists all three in details.errors, with constraints", async () => {
    const res = await server.client.post<ErrorBody>("/customers", {
      customerType: "PERSON",
      email: "not-an-email",
      phoneNumber: "555-1234",
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors).toEqual(
      expect.arrayContaining([
        {
          field: "customerType",
          constraint: { enum: ["INDIVIDUAL", "BUSINESS"] },
          message: "must be one of INDIVIDUAL, BUSINESS",
        },
        { field: "email", constraint: { format: "email" }, message: "must be a valid email" },
        { field: "phoneNumber", constraint: { format: "e.164" }, message: "must be a valid e.164" },
      ]),
    );
    expect(res.body.details?.errors).toHaveLength(3);
  });

  test.each([
    [{ customerType: "INDIVIDUAL", nickname: "x" }, "nickname", undefined],
    [{}, "customerType", undefined],
    [{ customerType: "INDIVIDUAL", nationality: "XX" }, "nationality", { format: "iso3166-1-alpha-2" }],
    [{ customerType: "INDIVIDUAL", birthDate: "1990-02-30" }, "birthDate", { format: "date" }],
    [{ customerType: "INDIVIDUAL", fullName: "" }, "fullName", { minLength: 1 }],
    [{ customerType: "INDIVIDUAL", fullName: "x".repeat(201) }, "fullName", { maxLength: 200 }],
    [
      {
        customerType: "INDIVIDUAL",
        address: { line1: "x", city: "y", postalCode: "1", country: "US", zip: 1 },
      },
      "address.zip",
      undefined,
    ],
    [
      { customerType: "INDIVIDUAL", address: { line1: "x", city: "y", postalCode: "1" } },
      "address.country",
      undefined,
    ],
    [{ customerType: "INDIVIDUAL", currencies: ["usd"] }, "currencies[0]", { pattern: "^[A-Z]{3,5}$" }],
    [
      { customerType: "INDIVIDUAL", enhancedDueDiligence: { expectedMonthlyVolume: "100" } },
      "enhancedDueDiligence.expectedMonthlyVolume",
      undefined,
    ],
    [
      { customerType: "INDIVIDUAL", enhancedDueDiligence: { expectedMonthlyVolume: 1.5 } },
      "enhancedDueDiligence.expectedMonthlyVolume",
      undefined,
    ],
  ])("invalid input %j names %s", async (body, field, constraint) => {
    const res = await server.client.post<ErrorBody>("/customers", body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    const error = res.body.details?.errors.find((e) => e.field === field);
    expect(error, JSON.stringify(res.body)).toBeDefined();
    if (constraint) expect(error?.constraint).toEqual(constraint);
    expect(typeof error?.message).toBe("string");
  });

  test("business-only fields on an individual, and individual-only fields on a business, are 400 INVALID_INPUT", async () => {
    const individual = await server.client.post<ErrorBody>("/customers", {
      customerType: "INDIVIDUAL",
      businessInfo: { legalName: "X" },
    });
    expect(individual.status).toBe(400);
    expect(individual.body.details?.errors.map((e) => e.field)).toEqual(["businessInfo"]);
    const business = await server.client.post<ErrorBody>("/customers", {
      customerType: "BUSINESS",
      birthDate: "2000-01-01",
    });
    expect(business.body.details?.errors.map((e) => e.field)).toEqual(["birthDate"]);
  });

  test("a platformCustomerId held by an active customer -> 409 CONFLICT, and nothing is written", async () => {
    await server.client.post("/customers", { customerType: "INDIVIDUAL", platformCustomerId: "dup-1" });
    const before = await server.client.get<{ totalCount: number }>("/customers");
    const res = await server.client.post<ErrorBody>("/customers", {
      customerType: "INDIVIDUAL",
      platformCustomerId: "dup-1",
      email: "d@e.co",
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
    expect(res.body.reason).toContain("dup-1");
    const after = await server.client.get<{ totalCount: number }>("/customers");
    expect(after.body.totalCount).toBe(before.body.totalCount);
    const orphans = await server.db.query(
      "SELECT id FROM internal_accounts WHERE customer_id NOT IN (SELECT id FROM customers) AND customer_id IS NOT NULL",
    );
    expect(orphans).toEqual([]);
  });

  test("a deleted customer frees its platformCustomerId", async () => {
    const first = await server.client.post<Customer>("/customers", {
      customerType: "INDIVIDUAL",
      platformCustomerId: "reuse-1",
    });
    expect((await server.client.delete(`/customers/${first.body.id}`)).status).toBe(200);
    const deleted = await server.client.get<Customer>(`/customers/${first.body.id}`);
    expect(deleted.body.isDeleted).toBe(true);
    const second = await server.client.post<Customer>("/customers", {
      customerType: "INDIVIDUAL",
      platformCustomerId: "reuse-1",
    });
    expect(second.status).toBe(201);
  });

  test("a deleted customer cannot be changed or deleted again: 409 CONFLICT", async () => {
    const created = await server.client.post<Customer>("/customers", { customerType: "INDIVIDUAL" });
    await server.client.delete(`/customers/${created.body.id}`);
    const patch = await server.client.patch<ErrorBody>(`/customers/${created.body.id}`, {
      fullName: "Ghost",
    });
    expect(patch.status).toBe(409);
    expect(patch.body).toEqual({
      code: "CONFLICT",
      reason: `Customer ${created.body.id} is deleted and cannot be changed.`,
    });
    expect((await server.client.delete(`/customers/${created.body.id}`)).status).toBe(409);
  });

  test("an existing umaAddress -> 409 UMA_ADDRESS_EXISTS", async () => {
    await server.client.post("/customers", { customerType: "INDIVIDUAL", umaAddress: "$alice@example.com" });
    const res = await server.client.post<ErrorBody>("/customers", {
      customerType: "INDIVIDUAL",
      umaAddress: "$alice@example.com",
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("UMA_ADDRESS_EXISTS");
  });

  test("a malformed umaAddress -> 400 INVALID_UMA_ADDRESS", async () => {
    const res = await server.client.post<ErrorBody>("/customers", {
      customerType: "INDIVIDUAL",
      umaAddress: "alice@example.com",
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_UMA_ADDRESS");
  });
});

describe("GET and PATCH /customers/{id}", () => {
  test.each([
    ["Customer:not-a-uuid"],
    ["Card:01a2031b-3af6-74b7-af52-45f72eabe452"],
    ["garbage"],
    ["Customer:01a2031b-3af6-74b7-af52-45f72eabe452"],
  ])("malformed, wrong-prefix or unknown id %s -> 404 CUSTOMER_NOT_FOUND", async (id) => {
    const res = await server.client.get<ErrorBody>(`/customers/${encodeURIComponent(id)}`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("CUSTOMER_NOT_FOUND");
  });

  test("PATCH merges fields and keeps the rest; updatedAt moves", async () => {
    const created = await server.client.post<Customer>("/customers", {
      customerType: "INDIVIDUAL",
      fullName: "Grace",
      email: "g@h.co",
    });
    const res = await server.client.patch<Customer>(`/customers/${created.body.id}`, {
      fullName: "Grace Hopper",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fullName: "Grace Hopper", email: "g@h.co", kycStatus: "UNVERIFIED" });
    expect(String(res.body.updatedAt) >= String(created.body.updatedAt)).toBe(true);
  });

  test("PATCH with an empty object or an unknown field -> 400 INVALID_INPUT", async () => {
    const created = await server.client.post<Customer>("/customers", { customerType: "INDIVIDUAL" });
    expect((await server.client.patch(`/customers/${created.body.id}`, {})).status).toBe(400);
    const unknown = await server.client.patch<ErrorBody>(`/customers/${created.body.id}`, {
      customerKind: "BUSINESS",
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details?.errors).toEqual([
      { field: "customerKind", message: "is not a recognized field" },
    ]);
  });

  test("PATCH accepts customerType when it equals the stored type (hosted API clients send it on every update)", async () => {
    const created = await server.client.post<Customer>("/customers", {
      customerType: "BUSINESS",
      businessInfo: { legalName: "Acme" },
    });
    const res = await server.client.patch<Customer>(`/customers/${created.body.id}`, {
      customerType: "BUSINESS",
      businessInfo: { legalName: "Acme Ltd" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ customerType: "BUSINESS", businessInfo: { legalName: "Acme Ltd" } });
  });

  test("PATCH with a customerType other than the stored one -> 400 INVALID_INPUT on customerType, nothing changes", async () => {
    const created = await server.client.post<Customer>("/customers", {
      customerType: "INDIVIDUAL",
      fullName: "Ada",
    });
    const res = await server.client.patch<ErrorBody>(`/customers/${created.body.id}`, {
      customerType: "BUSINESS",
      fullName: "Ada Lovelace",
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT" });
    expect(res.body.details?.errors).toEqual([
      { field: "customerType", message: "must be INDIVIDUAL: a customer's type cannot change" },
    ]);
    const after = await server.client.get<Customer>(`/customers/${created.body.id}`);
    expect(after.body).toMatchObject({ customerType: "INDIVIDUAL", fullName: "Ada" });
  });

  test("PATCH to another active customer's platformCustomerId -> 409 CONFLICT", async () => {
    await server.client.post("/customers", { customerType: "INDIVIDUAL", platformCustomerId: "taken-1" });
    const other = await server.client.post<Customer>("/customers", { customerType: "INDIVIDUAL" });
    const res = await server.client.patch<ErrorBody>(`/customers/${other.body.id}`, {
      platformCustomerId: "taken-1",
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
  });
});

describe("GET /customers", () => {
  test("filters by platformCustomerId, customerType and kycStatus", async () => {
    await server.client.post("/customers", {
      customerType: "BUSINESS",
      platformCustomerId: "filter-b",
      businessInfo: { legalName: "B" },
    });
    const res = await server.client.get<{ data: Customer[] }>(
      "/customers?platformCustomerId=filter-b&customerType=BUSINESS&kycStatus=UNVERIFIED",
    );
    expect(res.body.data.map((c) => c.platformCustomerId)).toEqual(["filter-b"]);
    const none = await server.client.get<{ data: Customer[]; totalCount: number }>(
      "/customers?platformCustomerId=filter-b&customerType=INDIVIDUAL",
    );
    expect(none.body).toMatchObject({ data: [], totalCount: 0, hasMore: false });
  });

  test("an unknown query parameter or a bad filter value -> 400 INVALID_INPUT naming it", async () => {
    const res = await server.client.get<ErrorBody>("/customers?kycStatus=MAYBE&colour=red");
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field).sort()).toEqual(["colour", "kycStatus"]);
  });
});
