import { expect } from "vitest";
import type { Db } from "../../src/core/db/db.js";
import type { GroupCommitStats } from "../../src/core/db/group-commit.js";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import type { Credentials, TestServer } from "../harness.js";

export type Quote = {
  id: string;
  status: string;
  createdAt: string;
  expiresAt: string;
  source: Record<string, unknown>;
  destination: Record<string, unknown>;
  sendingCurrency: { code: string };
  receivingCurrency: { code: string };
  totalSendingAmount: number;
  totalReceivingAmount: number;
  exchangeRate: number;
  feesIncluded: number;
  platformFeesIncluded: number;
  transactionId?: string;
};
export type ErrorBody = { code: string; reason: string; details?: { errors: { field: string }[] } };

const as = (auth?: Credentials) => (auth ? { auth } : {});

/** A new customer's account in `currency` (the platform must support it); `email` adds a USDB wallet. */
export async function newAccount(
  server: TestServer,
  options: { currency?: string; type?: string; email?: string; auth?: Credentials } = {},
): Promise<string> {
  const customer = await server.client.post<{ id: string }>(
    "/customers",
    { customerType: "INDIVIDUAL", ...withEndUserTerms, ...(options.email ? { email: options.email } : {}) },
    as(options.auth),
  );
  const accounts = await server.client.get<{ data: { id: string; type: string }[] }>(
    `/customers/internal-accounts?customerId=${customer.body.id}&currency=${options.currency ?? "USD"}`,
    as(options.auth),
  );
  const account = accounts.body.data.find((a) => a.type === (options.type ?? a.type));
  if (!account) throw new Error(`no ${options.currency ?? "USD"} account for ${customer.body.id}`);
  return account.id;
}

export async function fund(server: TestServer, accountId: string, amount: number, auth?: Credentials) {
  const res = await server.client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount }, as(auth));
  expect(res.status).toBe(200);
}

export async function balanceOf(server: TestServer, accountId: string, auth?: Credentials): Promise<number> {
  const res = await server.client.get<{ totalBalance: { amount: number } }>(
    `/internal-accounts/${accountId}`,
    as(auth),
  );
  return res.body.totalBalance.amount;
}

/** A same-currency transfer body between internal accounts. */
export function transfer(from: string, to: string, amount: number, extra: Record<string, unknown> = {}) {
  return {
    source: { sourceType: "ACCOUNT", accountId: from },
    destination: { destinationType: "ACCOUNT", accountId: to },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: amount,
    ...extra,
  };
}

/** Every account's balance is the sum of its balance changes, and every running balance is exact. */
export async function ledgerInvariantHolds(server: TestServer): Promise<void> {
  const drift = await server.db.query(
    `SELECT a.id FROM internal_accounts a LEFT JOIN balance_changes c ON c.account_id = a.id
     GROUP BY a.id HAVING a.total_balance <> COALESCE(sum(c.amount), 0)`,
  );
  expect(drift).toEqual([]);
  const running = await server.db.query(
    `SELECT id FROM (SELECT id, balance_after, sum(amount) OVER (PARTITION BY account_id ORDER BY effective_at, id) AS expected
     FROM balance_changes) r WHERE balance_after <> expected`,
  );
  expect(running).toEqual([]);
}

/** A token of the harness platform with only these permissions. */
export async function tokenWith(server: TestServer, permissions: string[]): Promise<Credentials> {
  const res = await server.client.post<{ id: string; clientId: string; clientSecret: string }>("/tokens", {
    name: permissions.join("+"),
    permissions,
  });
  expect(res.status).toBe(201);
  return {
    platformId: server.platform.platformId,
    tokenId: res.body.id,
    clientId: res.body.clientId,
    clientSecret: res.body.clientSecret,
  };
}

/**
 * Counts transactions retried after a deadlock or serialization failure (`Db.transaction` retries those,
 * so a deadlock would otherwise pass unnoticed): bodies run beyond their first attempt, and for transactions
 * that share commits the group commit's own count (core/db/group-commit.ts), because a batch whose members
 * share an account runs them again one by one, which is no retry. `wrap` goes to
 * `startServer({ wrapDb })`; `measure` counts the retries of the app's transactions during `work`.
 */
export function retryCounter() {
  // Counted per call, so a transaction still in flight when `measure` ends (the job runner's) adds nothing.
  let retries = 0;
  let grouping: { groupCommitStats(): GroupCommitStats } | undefined;
  const groupRetries = () => grouping?.groupCommitStats().retried ?? 0;
  return {
    wrap: (db: Db): Db => {
      if ("groupCommitStats" in db) grouping = db as Db & { groupCommitStats(): GroupCommitStats };
      return {
        ...db,
        transaction: (fn, options) => {
          let attempts = 0;
          return db.transaction((tx) => {
            attempts += 1;
            if (attempts > 1 && !options?.grouped) retries += 1;
            return fn(tx);
          }, options);
        },
      };
    },
    async measure<T>(work: () => Promise<T>): Promise<{ result: T; retries: number }> {
      retries = 0;
      const groupedBefore = groupRetries();
      const result = await work();
      return { result, retries: retries + groupRetries() - groupedBefore };
    },
  };
}
