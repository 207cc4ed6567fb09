export interface Measurement {
  name: string;
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

/** Runs `count` calls with `concurrency` in flight; returns throughput and latency percentiles (ms). */
export async function measure(
  name: string,
  count: number,
  concurrency: number,
  send: (i: number) => Promise<Response>,
  expectedStatus = 200,
): Promise<Measurement> {
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
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  const result = { name, count, perSecond: count / seconds, p50: pct(50), p99: pct(99), failures };
  report(result);
  if (failures > 0) process.exitCode = 1;
  return result;
}

export function report(m: Measurement): void {
  console.log(
    `${m.name.padEnd(44)} ${String(m.count).padStart(7)}  ${m.perSecond.toFixed(0).padStart(6)}/s  p50 ${m.p50.toFixed(1)} ms  p99 ${m.p99.toFixed(1)} ms${m.failures ? `  FAILURES ${m.failures}` : ""}`,
  );
}
