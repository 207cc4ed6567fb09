import { availableParallelism, loadavg, totalmem } from "node:os";
import type { CardFigures } from "./cards.js";
import type { Ceilings } from "./ceilings.js";
import type { PageFigures } from "./ledger.js";
import type { Measurement } from "./measure.js";
import type { WebhookFigures } from "./webhooks.js";

export interface Figures {
  database: "postgres" | "pglite";
  /** The API server ran on its own thread (true), or shared the load generator's event loop. */
  serverOnOwnThread: boolean;
  postgresVersion: string | null;
  startedAt: Date;
  loadBefore: number;
  ceilings: Ceilings;
  postings: Measurement;
  quote: Measurement;
  cards: CardFigures;
  pages: PageFigures;
  signedRetry: Measurement;
  webhooks: WebhookFigures | null;
  failures: number;
}

const rate = (value: number | null | undefined) => (value == null ? null : Math.round(value));
// Ratios against the durable ceiling only: on PGlite there is no such ceiling (docs/benchmarks.md).
const ratio = (value: number, ceiling: number | null) =>
  ceiling ? Math.round((value / ceiling) * 1000) / 1000 : null;
const latency = (m: Measurement) => ({ p50: round1(m.p50), p99: round1(m.p99) });
const round1 = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Issue 20's figures as one object for scripts: the goal ratios first, then the raw rates
 * (per second, 16 in flight) and ceilings they come from, then when and where they were measured.
 */
export function jsonReport(f: Figures) {
  const runs = f.ceilings.commitLoop16Runs;
  const commitLoop = runs.reduce((sum, r) => sum + r, 0) / runs.length;
  const ceiling = f.ceilings.commitLoopKind === "pg" ? commitLoop : null;
  return {
    postingsPerCeiling16: ratio(f.postings.perSecond, ceiling),
    quotePerCeiling16: ratio(f.quote.perSecond, ceiling),
    authorizationPerCeiling16: ratio(f.cards.authorization.perSecond, ceiling),
    clearingPerCeiling16: ratio(f.cards.clearing.perSecond, ceiling),
    pagePerHealthz16: ratio(f.pages.page.perSecond, f.pages.healthz.perSecond),
    webhookEventsPerSecond: rate(f.webhooks?.eventsPerSecond),
    webhookEndToEndEventsPerSecond: rate(f.webhooks?.endToEndEventsPerSecond),
    signedRetryPairsPerSecond: rate(f.signedRetry.perSecond),
    // The mean of the loop before and after the write figures (ceilings.ts).
    nodeCommitLoop16: rate(ceiling),
    pgbench16: rate(f.ceilings.pgbench16),
    pgliteCommitLoop16: f.ceilings.commitLoopKind === "pglite" ? rate(commitLoop) : null,
    commitLoop16Runs: runs.map((r) => Math.round(r)),
    postings16: rate(f.postings.perSecond),
    quote16: rate(f.quote.perSecond),
    authorization16: rate(f.cards.authorization.perSecond),
    clearing16: rate(f.cards.clearing.perSecond),
    page16: rate(f.pages.page.perSecond),
    healthz16: rate(f.pages.healthz.perSecond),
    webhookDuplicates: f.webhooks?.duplicates ?? null,
    webhookUndelivered: f.webhooks?.undelivered ?? null,
    latencyMs16: {
      postings: latency(f.postings),
      quote: latency(f.quote),
      authorization: latency(f.cards.authorization),
      clearing: latency(f.cards.clearing),
      page: latency(f.pages.page),
      healthz: latency(f.pages.healthz),
      signedRetryPair: latency(f.signedRetry),
    },
    failures: f.failures,
    database: f.database,
    serverOnOwnThread: f.serverOnOwnThread,
    postgresVersion: f.postgresVersion,
    node: process.version,
    cores: availableParallelism(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    // The machine is shared: the load beside the figures says how far to trust them.
    loadAverage1m: { before: round1(f.loadBefore), after: round1(loadavg()[0] ?? 0) },
    startedAt: f.startedAt.toISOString(),
    wallSeconds: Math.round((Date.now() - f.startedAt.getTime()) / 1000),
  };
}
