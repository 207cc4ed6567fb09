import type { Db } from "../src/core/db/db.js";
import { postBalanceChanges } from "../src/ledger/ledger.js";
import { withEndUserTerms } from "../test/customers/end-user-terms.js";
import { measure } from "./measure.js";

export interface BenchContext {
  base: string;
  origin: string;
  authorization: string;
  db: Db;
  platformId: string;
}

const DAY = 24 * 60 * 60 * 1000;

async function newAccount(ctx: BenchContext): Promise<string> {
  const headers = { authorization: ctx.authorization, "content-type": "application/json" };
  const customer = (await (
    await fetch(`${ctx.base}/customers`, {
      method: "POST",
      headers,
      body: JSON.stringify({ customerType: "INDIVIDUAL", ...withEndUserTerms }),
    })
  ).json()) as { id: string };
  const accounts = (await (
    await fetch(`${ctx.base}/customers/internal-accounts?customerId=${customer.id}`, { headers })
  ).json()) as { data: { id: string }[] };
  return accounts.data[0]?.id ?? "";
}

/** Writes `count` one-cent changes, one second apart, ending 10 days ago, with exact running balances. */
async function seed(ctx: BenchContext, accountId: string, count: number, start: Date): Promise<void> {
  const batch = 100_000;
  for (let offset = 0; offset < count; offset += batch) {
    const size = Math.min(batch, count - offset);
    await ctx.db.query(
      `INSERT INTO balance_changes (id, platform_id, account_id, transaction_id, amount, fee, effective_at, recorded_at,
         balance_after, count_after)
       SELECT 'BalanceChange:' || gen_random_uuid(), $1, $2, 'Transaction:00000000-0000-7000-8000-000000000001', 1, 0,
              $3::timestamptz + (g * interval '1 second'), $3::timestamptz + (g * interval '1 second'), g, g
       FROM generate_series($4::int8, $5::int8) g`,
      [ctx.platformId, accountId, start, offset + 1, offset + size],
    );
  }
  await ctx.db.query("UPDATE internal_accounts SET total_balance = $2 WHERE id = $1", [accountId, count]);
}

/** Page cost on a small and a huge account, feed throughput against /healthz, postings against raw inserts. */
export async function ledgerBench(ctx: BenchContext, largeCount: number): Promise<void> {
  const start = new Date(Date.now() - 30 * DAY);
  const small = await newAccount(ctx);
  const medium = await newAccount(ctx);
  const large = await newAccount(ctx);
  const t0 = performance.now();
  await seed(ctx, small, 10, start);
  await seed(ctx, medium, 1_000, start);
  await seed(ctx, large, largeCount, start);
  // What the running service's maintenance (PGlite) or autovacuum (PostgreSQL) does after a bulk load.
  await ctx.db.query("ANALYZE balance_changes");
  console.log(
    `seeded ${largeCount.toLocaleString("en-US")} changes in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const headers = { authorization: ctx.authorization };
  const window = (accountId: string, fromOffsetS: number) => {
    const from = new Date(start.getTime() + fromOffsetS * 1000).toISOString();
    const to = new Date(start.getTime() + 20 * DAY).toISOString();
    return `${ctx.base}/internal-accounts/${accountId}/balance-changes?from=${from}&to=${to}&limit=200`;
  };
  const smallPage = await measure("200-row page, 10-change account", 500, 4, () =>
    fetch(window(small, 0), { headers }),
  );
  const mediumPage = await measure("200-row page, 1,000-change account", 500, 4, () =>
    fetch(window(medium, 0), { headers }),
  );
  const largePage = await measure(
    `200-row page, ${largeCount.toLocaleString("en-US")}-change account`,
    500,
    4,
    (i) => fetch(window(large, Math.floor((i * 7919) % (largeCount - 1000))), { headers }),
  );
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  console.log(
    `page ratio 1,000,000 / 10 changes: p50 ${ratio(largePage.p50, smallPage.p50)}, p99 ${ratio(largePage.p99, smallPage.p99)} (the 10-change page holds 10 rows, the others 200)`,
  );
  console.log(
    `page ratio 1,000,000 / 1,000 changes (both 200 rows): p50 ${ratio(largePage.p50, mediumPage.p50)}, p99 ${ratio(largePage.p99, mediumPage.p99)}`,
  );

  const health = await measure("GET /healthz", 2000, 16, () => fetch(`${ctx.origin}/healthz`));
  const feed = await measure("GET balance-changes (large account)", 2000, 16, (i) =>
    fetch(window(large, (i * 104_729) % (largeCount - 1000)), { headers }),
  );
  console.log(
    `balance-changes req/s as a fraction of /healthz req/s: ${(feed.perSecond / health.perSecond).toFixed(2)}`,
  );

  const postings = 2000;
  let t = performance.now();
  for (let i = 0; i < postings; i++) {
    await ctx.db.transaction((tx) =>
      postBalanceChanges(tx, {
        platformId: ctx.platformId,
        now: new Date(),
        postings: [
          { accountId: small, amount: 1, transactionId: "Transaction:00000000-0000-7000-8000-000000000002" },
        ],
      }),
    );
  }
  const postingRate = postings / ((performance.now() - t) / 1000);
  await ctx.db.query(
    "CREATE TEMP TABLE IF NOT EXISTS bench_raw (id text PRIMARY KEY, account_id text, amount int8, at timestamptz)",
  );
  t = performance.now();
  for (let i = 0; i < postings; i++) {
    await ctx.db.query("INSERT INTO bench_raw VALUES ($1, $2, $3, $4)", [`raw-${i}`, small, 1, new Date()]);
  }
  const rawRate = postings / ((performance.now() - t) / 1000);
  console.log(
    `postings: ${postingRate.toFixed(0)}/s (one posting per transaction, with lock, running balance, account update and outbox event); raw single-row INSERT loop: ${rawRate.toFixed(0)}/s; fraction ${(postingRate / rawRate).toFixed(2)}`,
  );
}
