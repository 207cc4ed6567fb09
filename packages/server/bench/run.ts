import pino from "pino";
import { buildApp } from "../src/app.js";
import { systemClock } from "../src/core/clock.js";
import type { Db } from "../src/core/db/db.js";
import { migrate } from "../src/core/db/migrate.js";
import { openPglite } from "../src/core/db/pglite.js";
import { openPostgres } from "../src/core/db/postgres.js";
import { DEFAULT_SETTLEMENT_LAG_MS } from "../src/core/deps.js";
import { API_VERSION } from "../src/core/http/version.js";
import { createPlatform } from "../src/platform-config/platforms.js";
import { signedRetryPerformers } from "../src/signed-retry-performers.js";
import { withEndUserTerms } from "../test/customers/end-user-terms.js";
import { cardsBench } from "./cards.js";
import { ledgerBench } from "./ledger.js";
import { measure } from "./measure.js";
import { walletAuthBench } from "./wallet-auth.js";
import { createScratchDatabase, webhooksBench } from "./webhooks.js";

/** `npm run bench`: API throughput and latency, then the ledger figures (docs/benchmarks.md). */
async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  const largeCount = Number(process.env.BENCH_LARGE_ACCOUNT_CHANGES ?? 1_000_000);
  // PostgreSQL: a throwaway database next to the one named, so the bench never touches real data.
  const benchDb = url ? await createScratchDatabase(url, "paysvc_bench") : null;
  const db: Db = benchDb ? openPostgres(benchDb.url) : await openPglite();
  await migrate(db);
  const deps = {
    db,
    clock: systemClock,
    logger: pino({ level: "silent" }),
    mode: "sandbox" as const,
    settlementLagMs: DEFAULT_SETTLEMENT_LAG_MS,
    signedRetryPerformers,
  };
  const app = await buildApp(deps);
  const origin = await app.listen({ port: 0, host: "127.0.0.1" });
  const base = `${origin}/${API_VERSION}`;
  const { platform, token } = await createPlatform(deps, { name: "bench", environment: "SANDBOX" });
  const authorization = `Basic ${Buffer.from(`${token.clientId}:${token.clientSecret}`).toString("base64")}`;
  const json = { authorization, "content-type": "application/json" };
  console.log(`paysvc bench on ${url ? "PostgreSQL" : "PGlite (in memory)"}, Node ${process.version}`);

  const ids: string[] = [];
  await measure(
    "POST /customers (+2 accounts)",
    1000,
    8,
    async (i) => {
      const res = await fetch(`${base}/customers`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({
          customerType: "INDIVIDUAL",
          ...withEndUserTerms,
          fullName: `Bench ${i}`,
          email: `b${i}@example.com`,
        }),
      });
      if (res.status === 201) ids.push(((await res.clone().json()) as { id: string }).id);
      return res;
    },
    201,
  );
  await measure("GET /customers/{id}", 3000, 16, (i) =>
    fetch(`${base}/customers/${ids[i % ids.length]}`, { headers: { authorization } }),
  );
  await measure("GET /customers?limit=20", 1000, 8, () =>
    fetch(`${base}/customers?limit=20`, { headers: { authorization } }),
  );
  await cardsBench({ base, authorization, deps });
  await walletAuthBench({ base, authorization, db, platformId: platform.id });
  await ledgerBench({ base, origin, authorization, db, platformId: platform.id }, largeCount);
  // Last: ten wrong secrets lock the client id and this address out for 60 s (issue 16 item 8), so the
  // steady state of a guessing client is the 429, answered before any credential is checked.
  const badSecret = { authorization: `Basic ${Buffer.from(`${token.clientId}:x`).toString("base64")}` };
  for (let i = 0; i < 10; i++) await fetch(`${base}/customers`, { headers: badSecret });
  await measure(
    "429 (bad secret, locked out)",
    2000,
    16,
    () => fetch(`${base}/customers`, { headers: badSecret }),
    429,
  );
  await app.close();
  await db.close();
  await benchDb?.drop();
  await webhooksBench();
}

await main();
