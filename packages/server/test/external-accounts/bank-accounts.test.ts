import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";

type ExternalAccount = {
  id: string;
  status: string;
  customerId?: string;
  accountInfo: Record<string, unknown>;
};
type ErrorBody = {
  code: string;
  reason: string;
  details?: { errors: { field: string; constraint?: unknown }[] };
};

let server: TestServer;
let customerId: string;
beforeAll(async () => {
  server = await startServer();
  customerId = (await server.client.post<{ id: string }>("/customers", { customerType: "INDIVIDUAL" })).body
    .id;
});
afterAll(() => server.close());

const beneficiary = { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace", countryOfResidence: "US" };
const usd = (accountNumber: string, extra: Record<string, unknown> = {}) => ({
  customerId,
  currency: "USD",
  accountInfo: {
    accountType: "USD_ACCOUNT",
    accountNumber,
    routingNumber: "021000021",
    bankAccountType: "CHECKING",
    beneficiary,
    ...extra,
  },
});

describe("POST /customers/external-accounts (USD_ACCOUNT)", () => {
  test("creates a USD bank account: 201, ExternalAccount:<uuid>, validated at once in the sandbox (ACTIVE)", async () => {
    const res = await server.client.post<ExternalAccount>("/customers/external-accounts", usd("1234567890"));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: "ACTIVE",
      currency: "USD",
      customerId,
      defaultUmaDepositAccount: false,
      accountInfo: {
        accountType: "USD_ACCOUNT",
        accountNumber: "1234567890",
        routingNumber: "021000021",
        bankAccountType: "CHECKING",
      },
    });
    expect(res.body.id).toMatch(/^ExternalAccount:/);
    const events = await server.db.query<{ body: string }>(
      "SELECT body FROM webhook_events WHERE type = 'EXTERNAL_ACCOUNT.STATUS_UPDATED' AND body LIKE $1",
      [`%${res.body.id}%`],
    );
    expect(events.map((e) => JSON.parse(e.body).data)).toEqual([res.body]);
  });

  test("bankAccountType is required for USD_ACCOUNT", async () => {
    const body = usd("1111");
    delete (body.accountInfo as Record<string, unknown>).bankAccountType;
    const res = await server.client.post<ErrorBody>("/customers/external-accounts", body);
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["accountInfo.bankAccountType"]);
  });

  test("customerId is required", async () => {
    const { customerId: _omit, ...body } = usd("2222");
    const res = await server.client.post<ErrorBody>("/customers/external-accounts", body);
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["customerId"]);
  });

  test("routing and account numbers are validated, all field errors in one INVALID_INPUT", async () => {
    const res = await server.client.post<ErrorBody>(
      "/customers/external-accounts",
      usd("12ab", { routingNumber: "123456789", bankAccountType: "BROKERAGE" }),
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors.map((e) => e.field).sort()).toEqual([
      "accountInfo.accountNumber",
      "accountInfo.bankAccountType",
      "accountInfo.routingNumber",
    ]);
    expect(res.body.details?.errors.find((e) => e.field === "accountInfo.routingNumber")?.constraint).toEqual(
      { format: "aba-routing-number" },
    );
  });

  test("a beneficiary missing its type's required fields -> 400 INVALID_INPUT naming them", async () => {
    const res = await server.client.post<ErrorBody>(
      "/customers/external-accounts",
      usd("3333", { beneficiary: { beneficiaryType: "BUSINESS" } }),
    );
    expect(res.body.details?.errors.map((e) => e.field)).toEqual([
      "accountInfo.beneficiary.legalName",
      "accountInfo.beneficiary.countryOfIncorporation",
    ]);
  });

  test("an equivalent account -> 409 DUPLICATE_EXTERNAL_ACCOUNT; after deleting it, it can be added again", async () => {
    const first = await server.client.post<ExternalAccount>(
      "/customers/external-accounts",
      usd("5555000111"),
    );
    const dup = await server.client.post<ErrorBody>(
      "/customers/external-accounts",
      usd("5555000111", { bankAccountType: "SAVINGS" }),
    );
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("DUPLICATE_EXTERNAL_ACCOUNT");
    expect((await server.client.delete(`/customers/external-accounts/${first.body.id}`)).status).toBe(204);
    expect((await server.client.get(`/customers/external-accounts/${first.body.id}`)).status).toBe(404);
    expect((await server.client.post("/customers/external-accounts", usd("5555000111"))).status).toBe(201);
  });

  test.each([
    ["008", "PENDING"],
    ["009", "INACTIVE"],
    ["123", "ACTIVE"],
  ])("sandbox bank validation: accountNumber suffix %s -> %s", async (suffix, status) => {
    const res = await server.client.post<ExternalAccount>(
      "/customers/external-accounts",
      usd(`77000${suffix}`),
    );
    expect(res.body.status).toBe(status);
  });

  test("an unknown customer -> 404 CUSTOMER_NOT_FOUND", async () => {
    const res = await server.client.post<ErrorBody>("/customers/external-accounts", {
      ...usd("4444"),
      customerId: "Customer:nope",
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("CUSTOMER_NOT_FOUND");
  });
});

describe("reading and listing external accounts", () => {
  test("GET by id; unknown, malformed or another platform's ids -> 404 ACCOUNT_NOT_FOUND", async () => {
    const created = await server.client.post<ExternalAccount>("/customers/external-accounts", usd("9090901"));
    expect(
      (await server.client.get<ExternalAccount>(`/customers/external-accounts/${created.body.id}`)).body,
    ).toEqual(created.body);
    const other = await server.newPlatform();
    for (const [id, auth] of [
      [created.body.id, other],
      ["ExternalAccount:nope", undefined],
    ] as const) {
      const res = await server.client.get<ErrorBody>(
        `/customers/external-accounts/${id}`,
        auth ? { auth } : {},
      );
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("ACCOUNT_NOT_FOUND");
    }
  });

  test("the list filters by customer and is paginated", async () => {
    const res = await server.client.get<{ data: ExternalAccount[]; totalCount: number }>(
      `/customers/external-accounts?customerId=${customerId}&limit=2`,
    );
    expect(res.body.data).toHaveLength(2);
    expect(res.body.totalCount).toBeGreaterThan(2);
    expect(res.body.data.every((a) => a.customerId === customerId)).toBe(true);
  });

  test("platform-owned accounts live under /platform/external-accounts and take no customerId", async () => {
    const { customerId: _c, ...body } = usd("6060606");
    const created = await server.client.post<ExternalAccount>("/platform/external-accounts", body);
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty("customerId");
    expect((await server.client.get(`/platform/external-accounts/${created.body.id}`)).status).toBe(200);
    expect((await server.client.get(`/customers/external-accounts/${created.body.id}`)).status).toBe(404);
    const withCustomer = await server.client.post<ErrorBody>("/platform/external-accounts", usd("6060607"));
    expect(withCustomer.body.details?.errors.map((e) => e.field)).toEqual(["customerId"]);
  });
});
