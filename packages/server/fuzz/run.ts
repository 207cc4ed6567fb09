import pino from "pino";
import { createScratchDatabase } from "../bench/webhooks.js";
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
import { DbSnapshotter } from "./db-snapshot.js";
import { fuzzDrain } from "./drain.js";
import { formatResult, fuzz, sampleRequests, seedFixtures } from "./fuzzer.js";

/**
 * `npm run fuzz`: the app in-process over PGlite in memory (or a scratch database next to DATABASE_URL),
 * FUZZ_REQUESTS requests (default 2,000) from FUZZ_SEED (default: random, printed for replay).
 * "Nothing is written for a rejected request" is checked on every 4xx (one request at a time; no job
 * runner is started, so only requests write); FUZZ_WRITES=off skips it and sends 8 at a time.
 * FUZZ_SECONDS stops starting new batches of 500 after that long (long runs on a budget). Last, the
 * shutdown drain phase closes the app with requests in flight and sends generated ones on their
 * connections (fuzz/drain.ts).
 */
async function main(): Promise<number> {
  const url = process.env.DATABASE_URL;
  const requests = Number(process.env.FUZZ_REQUESTS ?? 2_000);
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
  const scratch = url ? await createScratchDatabase(url, "paysvc_fuzz") : null;
  const db: Db = scratch ? openPostgres(scratch.url) : await openPglite();
  await migrate(db);
  const deps = {
    db,
    clock: systemClock,
    logger: pino({ level: process.env.FUZZ_LOG_LEVEL ?? "silent" }),
    mode: "sandbox" as const,
    settlementLagMs: DEFAULT_SETTLEMENT_LAG_MS,
    signedRetryPerformers,
  };
  const app = await buildApp(deps);
  const origin = await app.listen({ port: 0, host: "127.0.0.1" });
  const baseUrl = `${origin}/${API_VERSION}`;
  const credentials = async (name: string) => {
    const { token } = await createPlatform(deps, { name, environment: "SANDBOX" });
    return { clientId: token.clientId, clientSecret: token.clientSecret };
  };
  const target = {
    origin,
    baseUrl,
    primary: await credentials("fuzz"),
    secondary: await credentials("fuzz other"),
  };
  console.log(
    `paysvc fuzz on ${url ? "PostgreSQL" : "PGlite (in memory)"}: ${requests} requests, seed ${seed} (replay: FUZZ_SEED=${seed})`,
  );
  const fixtures = await seedFixtures(target);
  const started = Date.now();
  const snapshots = process.env.FUZZ_WRITES === "off" ? undefined : new DbSnapshotter(db);
  await snapshots?.install();
  const budget = process.env.FUZZ_SECONDS ? Number(process.env.FUZZ_SECONDS) * 1000 : undefined;
  const result = await fuzz(target, fixtures, {
    requests,
    seed,
    ...(snapshots ? { snapshots } : {}),
    ...(budget ? { budgetMs: budget } : {}),
    onBatch: (r) =>
      console.log(
        `  ${r.sent} sent, ${r.rejectionsChecked} rejections checked, ${r.violations.length} violations (${Math.round((Date.now() - started) / 1000)} s)`,
      ),
  });
  // Last, since it closes the app: generated requests during the shutdown drain (fuzz/drain.ts).
  const { clientId, clientSecret } = target.primary;
  const drained = await fuzzDrain(
    {
      origin,
      baseUrl,
      server: app.server,
      close: () => app.close(),
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
    },
    await sampleRequests(target, fixtures, seed, 16),
  );
  result.violations.push(...drained);
  console.log(formatResult(result));
  console.log(`shutdown drain: requests sent while draining, ${drained.length} violations`);
  await db.close();
  await scratch?.drop();
  return result.violations.length === 0 && result.healthy ? 0 : 1;
}

process.exitCode = await main();
