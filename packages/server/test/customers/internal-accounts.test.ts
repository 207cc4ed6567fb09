import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { currencySettings, startServer, type TestServer } from "../harness.js";

type Account = {
  id: string;
  customerId?: string;
  type: string;
  status: string;
  balance: { amount: number; currency: { code: string } };
  totalBalance: {
    amount: number;
    currency: { code: string; name: string; symbol: string; decimals: number };
  };
  fundingPaymentInstructions: unknown[];
  privateEnabled?: boolean;
};
type Page<T> = { data: T[]; hasMore: boolean; nextCursor?: string; totalCount: number };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function customer(body: Record<string, unknown> = {}) {
  return (await server.client.post<{ id: string }>("/customers", { customerType: "INDIVIDUAL", ...body }))
    .body.id;
}

describe("internal accounts (conventions §2.2)", () => {
  test("creating a customer with an e-mail opens a USD INTERNAL_FIAT account and a USDB EMBEDDED_WALLET", async () => {
    const id = await customer({ email: "w@x.co" });
    const res = await server.client.get<Page<Account>>(
      `/customers/internal-accounts?customerId=${id}&sortOrder=asc`,
    );
    // Both accounts are opened in the same instant, so their order is the ids' (random within a millisecond).
    expect(res.body.data.map((a) => [a.type, a.balance.currency.code]).sort()).toEqual([
      ["EMBEDDED_WALLET", "USDB"],
      ["INTERNAL_FIAT", "USD"],
    ]);
    const fiat = res.body.data.find((a) => a.type === "INTERNAL_FIAT");
    const wallet = res.body.data.find((a) => a.type === "EMBEDDED_WALLET");
    expect(fiat).toMatchObject({
      customerId: id,
      status: "ACTIVE",
      balance: { amount: 0 },
      totalBalance: { amount: 0 },
    });
    expect(fiat?.totalBalance.currency).toEqual({
      code: "USD",
      name: "United States Dollar",
      symbol: "$",
      decimals: 2,
    });
    expect(fiat).not.toHaveProperty("privateEnabled");
    expect(fiat?.fundingPaymentInstructions).toHaveLength(1);
    expect(wallet?.privateEnabled).toBe(false);
  });

  test("a customer without an e-mail gets no embedded wallet", async () => {
    const id = await customer();
    const res = await server.client.get<Page<Account>>(`/customers/internal-accounts?customerId=${id}`);
    expect(res.body.data.map((a) => a.type)).toEqual(["INTERNAL_FIAT"]);
  });

  test("one INTERNAL_FIAT account per fiat code the platform supports", async () => {
    await server.client.patch("/config", { supportedCurrencies: currencySettings("USD", "EUR", "USDB") });
    const id = await customer();
    await server.client.patch("/config", { supportedCurrencies: currencySettings("USD", "USDB") });
    const res = await server.client.get<Page<Account>>(
      `/customers/internal-accounts?customerId=${id}&type=INTERNAL_FIAT`,
    );
    expect(res.body.data.map((a) => a.balance.currency.code).sort()).toEqual(["EUR", "USD"]);
  });

  test("GET /internal-accounts/{id} returns the account; unknown, malformed or foreign ids -> 404 ACCOUNT_NOT_FOUND", async () => {
    const id = await customer();
    const list = await server.client.get<Page<Account>>(`/customers/internal-accounts?customerId=${id}`);
    const accountId = list.body.data[0]?.id ?? "";
    const res = await server.client.get<Account>(`/internal-accounts/${encodeURIComponent(accountId)}`);
    expect(res.body).toEqual(list.body.data[0]);
    for (const bad of ["InternalAccount:x", "Customer:01a2031b-3af6-74b7-af52-45f72eabe452", id]) {
      const miss = await server.client.get(`/internal-accounts/${bad}`);
      expect(miss.status).toBe(404);
      expect(miss.body).toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
    }
  });

  test("the sandbox platform starts with one platform-owned USD account, listed by GET /platform/internal-accounts", async () => {
    const res = await server.client.get<{ data: Account[] } & Record<string, unknown>>(
      "/platform/internal-accounts",
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data"]);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).not.toHaveProperty("customerId");
    expect(res.body.data[0]?.balance.currency.code).toBe("USD");
    const filtered = await server.client.get<{ data: Account[] }>("/platform/internal-accounts?currency=EUR");
    expect(filtered.body.data).toEqual([]);
  });

  test("customer account lists never include platform-owned accounts", async () => {
    const res = await server.client.get<Page<Account>>("/customers/internal-accounts?limit=100");
    expect(res.body.data.every((a) => a.customerId !== undefined)).toBe(true);
  });
});

describe("pagination (conventions §1.6)", () => {
  test("pages follow nextCursor until hasMore is false, with no gap and no repeat, and totalCount of the whole list", async () => {
    const fresh = await server.newPlatform();
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      created.push(
        (
          await server.client.post<{ id: string }>(
            "/customers",
            { customerType: "INDIVIDUAL" },
            { auth: fresh },
          )
        ).body.id,
      );
    }
    for (const order of ["asc", "desc"] as const) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const query = `/customers?limit=2&sortOrder=${order}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
        const page = await server.client.get<Page<{ id: string }>>(query, { auth: fresh });
        expect(page.body.totalCount).toBe(5);
        seen.push(...page.body.data.map((c) => c.id));
        if (!page.body.hasMore) {
          expect(page.body).not.toHaveProperty("nextCursor");
          break;
        }
        cursor = page.body.nextCursor;
      }
      expect(seen).toEqual(order === "asc" ? created : [...created].reverse());
    }
  });

  test.each([["0"], ["101"], ["abc"], ["1.5"]])(
    "limit=%s -> 400 INVALID_INPUT on limit (never clamped)",
    async (limit) => {
      const res = await server.client.get<{ code: string; details: { errors: { field: string }[] } }>(
        `/customers?limit=${limit}`,
      );
      expect(res.status).toBe(400);
      expect(res.body.details.errors.map((e) => e.field)).toEqual(["limit"]);
    },
  );

  test("a malformed cursor, or one from another list, filter or platform -> 400 INVALID_INPUT on cursor", async () => {
    const page = await server.client.get<Page<unknown>>("/customers?limit=1");
    const cursor = encodeURIComponent(page.body.nextCursor ?? "");
    const other = await server.newPlatform();
    for (const [path, auth] of [
      ["/customers?cursor=garbage", undefined],
      [`/tokens?cursor=${cursor}`, undefined],
      [`/customers?kycStatus=APPROVED&cursor=${cursor}`, undefined],
      [`/customers?sortOrder=asc&cursor=${cursor}`, undefined],
      [`/customers?cursor=${cursor}`, other],
    ] as const) {
      const res = await server.client.get<{ code: string; details: { errors: { field: string }[] } }>(
        path,
        auth ? { auth } : {},
      );
      expect(res.status, path).toBe(400);
      expect(res.body.details.errors[0]?.field).toBe("cursor");
    }
  });
});
