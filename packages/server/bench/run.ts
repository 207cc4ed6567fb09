import pino from "pino";
import { buildApp } from "../src/app.js";
import { systemClock } from "../src/core/clock.js";
import type { Db } from "../src/core/db/db.js";
import { migrate } from "../src/core/db/migrate.js";
import { openPglite } from "../src/core/db/pglite.js";
import { openPostgres } from "../src/core/db/postgres.js";
import { DEFAULT_SETTLEMENT_LAG_MS } from "../src/core/deps.js";
import { API_VERSION } from "../src/core/http/version.js";
import { createPlatform } from "../src/platform/platforms.js";

/** Runs `count` requests with `concurrency` in flight; returns throughput and latency percentiles. */
async function measure(
  name: string,
  count: number,
  concurrency: number,
  send: (i: number) => Promise<Response>,
  expectedStatus = 200,
) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        const res = await send(i);
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (res.status !== expectedStatus) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    (latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0).toFixed(1);
  console.log(
    `${name.padEnd(34)} ${String(count).padStart(6)} req  ${(count / seconds).toFixed(0).padStart(6)} req/s  p50 ${pct(50)} ms  p95 ${pct(95)} ms  p99 ${pct(99)} ms${failures ? `  FAILURES ${failures}` : ""}`,
  );
  if (failures > 0) process.exitCode = 1;
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  const db: Db = url ? openPostgres(url) : await openPglite();
  await migrate(db);
  const deps = {
    db,
    clock: systemClock,
    logger: pino({ level: "silent" }),
    mode: "sandbox" as const,
    settlementLagMs: DEFAULT_SETTLEMENT_LAG_MS,
  };
  const app = await buildApp(deps);
  const origin = await app.listen({ port: 0, host: "127.0.0.1" });
  const base = `${origin}/${API_VERSION}`;
  const { token } = await createPlatform(deps, { name: "bench", environment: "SANDBOX" });
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
  await measure("GET /customers/internal-accounts", 1000, 8, () =>
    fetch(`${base}/customers/internal-accounts?limit=20`, { headers: { authorization } }),
  );
  await measure(
    "401 (bad secret)",
    2000,
    16,
    () =>
      fetch(`${base}/customers`, {
        headers: { authorization: `Basic ${Buffer.from(`${token.clientId}:x`).toString("base64")}` },
      }),
    401,
  );
  await app.close();
  await db.close();
}

await main();
