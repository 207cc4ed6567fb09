import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import pino from "pino";
import { buildApp } from "../src/app.js";
import { systemClock } from "../src/core/clock.js";
import type { Db } from "../src/core/db/db.js";
import { openDatabase } from "../src/core/db/open.js";
import { DEFAULT_SETTLEMENT_LAG_MS } from "../src/core/deps.js";
import { signedRetryPerformers } from "../src/signed-retry-performers.js";

/** The API server the figures are sent to, on a thread of its own (docs/benchmarks.md "Method"). */
export interface BenchServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * Starts paysvc on its own thread (its own event loop, its own PostgreSQL pool) over `databaseUrl`: the
 * load generator's fetch calls no longer share the server's one event loop, as a deployment's clients
 * never do. The bench's own thread seeds through the same database.
 */
export function startServerThread(databaseUrl: string): Promise<BenchServer> {
  // On Node 20 a worker does not inherit the `--import tsx` hooks of the bench's thread: this small
  // bootstrap registers tsx in the worker and then loads this file there.
  const bootstrap = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(
    import.meta.url,
  )}); });`;
  const worker = new Worker(bootstrap, { eval: true, workerData: { databaseUrl } });
  return new Promise((resolve, reject) => {
    worker.once("error", reject);
    worker.once("message", (message: { origin: string }) => {
      worker.off("error", reject);
      resolve({
        origin: message.origin,
        close: async () => {
          worker.postMessage("close");
          await new Promise((done) => worker.once("exit", done));
        },
      });
    });
  });
}

/** The service's dependencies as the bench runs them: sandbox mode, the system clock, no log output. */
export function benchDeps(db: Db) {
  return {
    db,
    clock: systemClock,
    logger: pino({ level: "silent" }),
    mode: "sandbox" as const,
    settlementLagMs: DEFAULT_SETTLEMENT_LAG_MS,
    signedRetryPerformers,
  };
}

async function serve(databaseUrl: string): Promise<void> {
  // As `paysvc start` opens it: pool size, timeouts and group commit from the environment (PAYSVC_DB_*, …).
  const db = await openDatabase({ kind: "postgres", url: databaseUrl });
  const app = await buildApp(benchDeps(db));
  const origin = await app.listen({ port: 0, host: "127.0.0.1" });
  parentPort?.on("message", async () => {
    await app.close();
    await db.close();
    process.exit(0);
  });
  parentPort?.postMessage({ origin });
}

if (!isMainThread && workerData?.databaseUrl) await serve(workerData.databaseUrl as string);
