import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Credentials, startServer, type TestServer } from "../harness.js";

let server: TestServer;
let other: Credentials;
let customerId: string;
let accountId: string;
let tokenId: string;

beforeAll(async () => {
  server = await startServer();
  other = await server.newPlatform();
  const customer = await server.client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    platformCustomerId: "shared-ref",
  });
  customerId = customer.body.id;
  const accounts = await server.client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${customerId}`,
  );
  accountId = accounts.body.data[0]?.id ?? "";
  const token = await server.client.post<{ id: string }>("/tokens", { name: "t", permissions: ["VIEW"] });
  tokenId = token.body.id;
});
afterAll(() => server.close());

describe("tenancy: another platform's ids answer exactly like ids that do not exist", () => {
  test.each([
    [
      "GET",
      () => `/customers/${customerId}`,
      "CUSTOMER_NOT_FOUND",
      () => "/customers/Customer:01a2031b-3af6-74b7-af52-45f72eabe452",
    ],
    [
      "PATCH",
      () => `/customers/${customerId}`,
      "CUSTOMER_NOT_FOUND",
      () => "/customers/Customer:01a2031b-3af6-74b7-af52-45f72eabe452",
    ],
    [
      "DELETE",
      () => `/customers/${customerId}`,
      "CUSTOMER_NOT_FOUND",
      () => "/customers/Customer:01a2031b-3af6-74b7-af52-45f72eabe452",
    ],
    [
      "GET",
      () => `/internal-accounts/${accountId}`,
      "ACCOUNT_NOT_FOUND",
      () => "/internal-accounts/InternalAccount:01a2031b-3af6-74b7-af52-45f72eabe452",
    ],
    [
      "GET",
      () => `/tokens/${tokenId}`,
      "TOKEN_NOT_FOUND",
      () => "/tokens/Token:01a2031b-3af6-74b7-af52-45f72eabe452",
    ],
    [
      "DELETE",
      () => `/tokens/${tokenId}`,
      "TOKEN_NOT_FOUND",
      () => "/tokens/Token:01a2031b-3af6-74b7-af52-45f72eabe452",
    ],
  ])("%s %s", async (method, foreignPath, code, missingPath) => {
    const body = method === "PATCH" ? { fullName: "Mallory" } : undefined;
    const foreign = await server.client.request(method, foreignPath(), body, { auth: other });
    const missing = await server.client.request(method, missingPath(), body, { auth: other });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code });
    expect(missing.status).toBe(404);
    expect(
      (foreign.body as { reason: string }).reason.replace(foreignPath().split("/").pop() ?? "", "ID"),
    ).toBe((missing.body as { reason: string }).reason.replace(missingPath().split("/").pop() ?? "", "ID"));
  });

  test("lists show only the caller's own resources", async () => {
    const customers = await server.client.get<{ data: { id: string }[]; totalCount: number }>("/customers", {
      auth: other,
    });
    expect(customers.body.data.map((c) => c.id)).not.toContain(customerId);
    expect(customers.body.totalCount).toBe(0);
    const accounts = await server.client.get<{ data: unknown[] }>(
      `/customers/internal-accounts?customerId=${customerId}`,
      {
        auth: other,
      },
    );
    expect(accounts.body.data).toEqual([]);
  });

  test("platformCustomerId is unique per platform, not across platforms", async () => {
    const res = await server.client.post(
      "/customers",
      { customerType: "INDIVIDUAL", platformCustomerId: "shared-ref" },
      { auth: other },
    );
    expect(res.status).toBe(201);
  });

  test("the foreign resource was not changed by the other platform's attempts", async () => {
    const res = await server.client.get<{ fullName?: string; isDeleted: boolean }>(
      `/customers/${customerId}`,
    );
    expect(res.body.fullName).toBeUndefined();
    expect(res.body.isDeleted).toBe(false);
  });
});
