import type { BenchResponse } from "./http-client.js";

export interface Measurement {
  name: string;
  count: number;
  concurrency: number;
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

/**
 * Seconds each timed figure runs for (`BENCH_SECONDS`, default 5). A time budget rather than a request
 * count, so a figure lasts a few seconds whether the machine does 50 or 5,000 a second, and the whole
 * bench stays inside its 10 minutes on a loaded machine.
 */
export const FIGURE_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

/** What one worker sends next; `undefined` when it has nothing left (a clearing with no authorization). */
export type Send = (i: number, worker: number) => Promise<BenchResponse> | undefined;

/**
 * Keeps `concurrency` requests in flight for `seconds` (or until `maxCount` were sent, or every worker
 * ran out), then waits for those in flight. The rate counts completed requests over the whole time.
 * `worker` (0…concurrency-1) lets a figure give each in-flight request its own account or card, so the
 * figure measures the service, not requests queueing on one row lock.
 */
export async function measureFor(
  name: string,
  options: { concurrency: number; seconds?: number; maxCount?: number; expectedStatus?: number },
  send: Send,
): Promise<Measurement> {
  const { concurrency, seconds = FIGURE_SECONDS, maxCount = Number.POSITIVE_INFINITY } = options;
  const expectedStatus = options.expectedStatus ?? 200;
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_unused, worker) => {
      while (next < maxCount && performance.now() < deadline) {
        const i = next++;
        const t0 = performance.now();
        const pending = send(i, worker);
        if (!pending) return;
        const res = await pending;
        const body = await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (res.status === expectedStatus) continue;
        // The first one says why; the rest would only repeat it.
        if (failures++ === 0)
          console.log(`${name}: ${res.status} ${Buffer.from(body).toString("utf8").slice(0, 300)}`);
      }
    }),
  );
  return finish(name, concurrency, latencies, failures, (performance.now() - started) / 1000);
}

/** Runs `count` calls with `concurrency` in flight; returns throughput and latency percentiles (ms). */
export async function measure(
  name: string,
  count: number,
  concurrency: number,
  send: (i: number) => Promise<BenchResponse>,
  expectedStatus = 200,
): Promise<Measurement> {
  return measureFor(
    name,
    { concurrency, maxCount: count, seconds: Number.POSITIVE_INFINITY, expectedStatus },
    send,
  );
}

function finish(
  name: string,
  concurrency: number,
  latencies: number[],
  failures: number,
  seconds: number,
): Measurement {
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  const count = latencies.length;
  const result = {
    name,
    count,
    concurrency,
    perSecond: count / seconds,
    p50: pct(50),
    p99: pct(99),
    failures,
  };
  report(result);
  if (failures > 0) process.exitCode = 1;
  return result;
}

export function report(m: Measurement): void {
  console.log(
    `${m.name.padEnd(48)} ${String(m.count).padStart(7)} @${String(m.concurrency).padStart(2)}  ${m.perSecond.toFixed(0).padStart(6)}/s  p50 ${m.p50.toFixed(1)} ms  p99 ${m.p99.toFixed(1)} ms${m.failures ? `  FAILURES ${m.failures}` : ""}`,
  );
}
