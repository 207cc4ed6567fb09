import { expect } from "vitest";
import { postBalanceChanges } from "../../src/ledger/ledger.js";
import type { BalanceChangeWindow, DeliveryRecord } from "../../src/statements/schemas.js";
import { currencySettings, startServer, type TestClient, type TestServer } from "../harness.js";

/** Short enough that windows close within a test, long enough to tell "future" from "not yet settled". */
export const LAG_MS = 60_000;

/** The service clock stands still at this instant unless a test moves a platform's clock. */
export const SERVICE_START = "2026-01-01T00:00:00.000Z";

export const USD = { code: "USD", name: "United States Dollar", symbol: "$", decimals: 2 };
export const usd = (amount: number) => ({ amount, currency: USD });

export interface ErrorBody {
  code: string;
  reason: string;
  details?: { errors: { field: string; message: string; constraint?: Record<string, unknown> }[] };
}

/** A server whose service clock is fixed, so every platform's "now" is exactly where a test puts it. */
export function startStatementServer(): Promise<TestServer> {
  return startServer({ serviceTime: SERVICE_START, settlementLagMs: LAG_MS });
}

/** A new customer's USD INTERNAL_FIAT account (a statement account). */
export async function usdAccount(
  client: TestClient,
  customer: Record<string, unknown> = {},
): Promise<string> {
  const created = await client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    ...customer,
  });
  const accounts = await client.get<{
    data: { id: string; type: string; balance: { currency: { code: string } } }[];
  }>(`/customers/internal-accounts?customerId=${created.body.id}`);
  const account = accounts.body.data.find(
    (a) => a.type === "INTERNAL_FIAT" && a.balance.currency.code === "USD",
  );
  if (!account) throw new Error("the customer has no USD account");
  return account.id;
}

/** Moves the caller's platform clock to `to` (it never goes back). */
export async function setClock(client: TestClient, to: string | Date): Promise<void> {
  const iso = typeof to === "string" ? to : to.toISOString();
  const res = await client.post("/sandbox/clock/advance", { to: iso });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

export interface Change {
  amount: number;
  fee?: number;
  effectiveAt: Date;
  /** When it is recorded; defaults to effectiveAt (a backdated change is recorded later). */
  now?: Date;
  transactionId?: string;
}

/** Posts one change straight through the ledger (as a card clearing would), overdraft allowed. */
export async function postChange(server: TestServer, platformId: string, accountId: string, change: Change) {
  const { changes } = await server.db.transaction((tx) =>
    postBalanceChanges(tx, {
      platformId,
      now: change.now ?? change.effectiveAt,
      effectiveAt: change.effectiveAt,
      settlementLagMs: LAG_MS,
      postings: [
        {
          accountId,
          amount: change.amount,
          fee: change.fee ?? 0,
          transactionId: change.transactionId ?? "Transaction:0190a000-0000-7000-8000-000000000111",
        },
      ],
      allowOverdraft: true,
    }),
  );
  const [row] = changes;
  if (!row) throw new Error("no change posted");
  return row;
}

export function windowPath(
  accountId: string,
  from: string | Date,
  to: string | Date,
  extra: Record<string, string | number> = {},
): string {
  const text = (v: string | Date) => (typeof v === "string" ? v : v.toISOString());
  const query = new URLSearchParams({ from: text(from), to: text(to) });
  for (const [key, value] of Object.entries(extra)) query.set(key, String(value));
  return `/internal-accounts/${accountId}/balance-changes?${query}`;
}

/** Every page of a window, following nextCursor; asserts each page is a 200. */
export async function allPages(
  client: TestClient,
  accountId: string,
  from: string | Date,
  to: string | Date,
  limit: number,
): Promise<BalanceChangeWindow[]> {
  const pages: BalanceChangeWindow[] = [];
  let cursor: string | undefined;
  do {
    const res = await client.get<BalanceChangeWindow>(
      windowPath(accountId, from, to, cursor ? { limit, cursor } : { limit }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(res.body);
    cursor = res.body.nextCursor;
    expect(cursor === undefined).toBe(!res.body.hasMore);
  } while (cursor !== undefined);
  return pages;
}

export function deliveries(client: TestClient, accountId: string, query = "") {
  return client.get<{ data: DeliveryRecord[]; hasMore: boolean; nextCursor?: string; totalCount: number }>(
    `/internal-accounts/${accountId}/statement-deliveries${query}`,
  );
}

/** A new sandbox platform whose clock reads `now`, and a client for it. */
export async function platformAt(
  server: TestServer,
  now: string,
): Promise<{ client: TestClient; platformId: string }> {
  const credentials = await server.newPlatform();
  const client = server.client.as(credentials);
  await setClock(client, now);
  return { client, platformId: credentials.platformId };
}

/**
 * One account of each kind that has no statements of its own (interface "Periodic statement rules" 3,
 * conventions §3.1): platform-owned, rule-based, bulk-settlement, a non-USD fiat account and a wallet.
 */
export async function nonStatementAccounts(
  server: TestServer,
  client: TestClient,
): Promise<[string, string][]> {
  const platformAccounts = await client.get<{ data: { id: string }[] }>(
    "/platform/internal-accounts?currency=USD",
  );
  const ruleBased = await usdAccount(client);
  const bulk = await usdAccount(client);
  // Roles are a column without an API yet (docs/decisions.md "Rule-based and bulk-settlement accounts").
  await server.db.query("UPDATE internal_accounts SET role = 'RULE_BASED' WHERE id = $1", [ruleBased]);
  await server.db.query("UPDATE internal_accounts SET role = 'BULK_SETTLEMENT' WHERE id = $1", [bulk]);
  const config = await client.patch("/config", {
    supportedCurrencies: currencySettings("USD", "EUR", "USDB"),
  });
  expect(config.status).toBe(200);
  const customer = await client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    email: "statements@example.com",
  });
  const accounts = await client.get<{
    data: { id: string; type: string; balance: { currency: { code: string } } }[];
  }>(`/customers/internal-accounts?customerId=${customer.body.id}`);
  const find = (type: string, code: string) =>
    accounts.body.data.find((a) => a.type === type && a.balance.currency.code === code)?.id ?? "missing";
  return [
    ["platform-owned", platformAccounts.body.data[0]?.id ?? "missing"],
    ["rule-based", ruleBased],
    ["bulk-settlement", bulk],
    ["EUR INTERNAL_FIAT", find("INTERNAL_FIAT", "EUR")],
    ["USDB EMBEDDED_WALLET", find("EMBEDDED_WALLET", "USDB")],
  ];
}
