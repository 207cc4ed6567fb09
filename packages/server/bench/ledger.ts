import type { Db } from "../src/core/db/db.js";
import { withEndUserTerms } from "../test/customers/end-user-terms.js";
import { request } from "./http-client.js";
import { type Measurement, measureFor } from "./measure.js";

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

export interface PageFigures {
  /** 200-row balance-changes pages of the large account, 16 in flight. */
  page: Measurement;
  /** `GET /healthz` on the same server, 16 in flight: what the page is compared with. */
  healthz: Measurement;
}

/** Page cost on a small and a huge account, then page throughput against /healthz (issues 3 and 20). */
export async function ledgerBench(ctx: BenchContext, largeCount: number): Promise<PageFigures> {
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
  // On PGlite the seed blocks the event loop for longer than both ends' keep-alive timeouts (72 s). Let
  // the expired timers close the idle sockets first, or the next fetch reuses one the server is closing
  // and fails with ECONNRESET.
  await new Promise((resolve) => setTimeout(resolve, 1000));

  const headers = { authorization: ctx.authorization };
  const window = (accountId: string, fromOffsetS: number) => {
    const from = new Date(start.getTime() + fromOffsetS * 1000).toISOString();
    const to = new Date(start.getTime() + 20 * DAY).toISOString();
    return `${ctx.base}/internal-accounts/${accountId}/balance-changes?from=${from}&to=${to}&limit=200`;
  };
  const latency = (label: string, accountId: string, offset: (i: number) => number) =>
    measureFor(label, { concurrency: 4 }, (i) => request(window(accountId, offset(i)), { headers }));
  const smallPage = await latency("200-row page, 10-change account", small, () => 0);
  const mediumPage = await latency("200-row page, 1,000-change account", medium, () => 0);
  const largePage = await latency(
    `200-row page, ${largeCount.toLocaleString("en-US")}-change account`,
    large,
    (i) => Math.floor((i * 7919) % (largeCount - 1000)),
  );
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  console.log(
    `page ratio ${largeCount.toLocaleString("en-US")} / 10 changes: p50 ${ratio(largePage.p50, smallPage.p50)}, p99 ${ratio(largePage.p99, smallPage.p99)} (the 10-change page holds 10 rows, the others 200)`,
  );
  console.log(
    `page ratio ${largeCount.toLocaleString("en-US")} / 1,000 changes (both 200 rows): p50 ${ratio(largePage.p50, mediumPage.p50)}, p99 ${ratio(largePage.p99, mediumPage.p99)}`,
  );

  const healthz = await measureFor("GET /healthz", { concurrency: 16 }, () =>
    request(`${ctx.origin}/healthz`),
  );
  const page = await measureFor("GET balance-changes, 200 rows (large account)", { concurrency: 16 }, (i) =>
    request(window(large, (i * 104_729) % (largeCount - 1000)), { headers }),
  );
  console.log(
    `balance-changes req/s as a fraction of /healthz req/s: ${(page.perSecond / healthz.perSecond).toFixed(2)}`,
  );
  return { page, healthz };
}
