import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BalanceChangeWindow } from "../../src/statements/schemas.js";
import type { TestClient, TestServer } from "../harness.js";
import { sizes, timeoutFor } from "../sizes.js";
import {
  allPages,
  LAG_MS,
  platformAt,
  postChange,
  setClock,
  startStatementServer,
  usdAccount,
  windowPath,
} from "./helpers.js";

// Properties behind interface "Periodic statement rules" 4 and "List balance changes" rules 1 and 3, and
// the settlement-lag promise in core/deps.ts: identity on every page split, tiling, closed windows final.
const NOW = "2026-12-15T12:00:00.000Z";
const DAY = 86_400_000;
const HOUR = 3_600_000;
// DST changes (spring forward, fall back) and the month starts next to them.
const ANCHORS = [
  "2026-03-08T08:00:00Z",
  "2026-11-01T07:00:00Z",
  "2026-11-01T05:00:00Z",
  "2026-03-01T06:00:00Z",
];

let server: TestServer;
let client: TestClient;
let platformId: string;
beforeAll(async () => {
  server = await startStatementServer();
  ({ client, platformId } = await platformAt(server, NOW));
});
afterAll(() => server.close());

interface Posted {
  id: string;
  amount: number;
  effectiveAt: number;
}

const inOrder = (a: Posted, b: Posted) =>
  a.effectiveAt - b.effectiveAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const total = (changes: { amount: number }[]) => changes.reduce((sum, c) => sum + c.amount, 0);

/** Reads a whole window with a page size, checking what every page must share and the client's identity. */
async function readWindow(accountId: string, from: number, to: number, limit: number) {
  const pages = await allPages(client, accountId, new Date(from), new Date(to), limit);
  const [first] = pages;
  if (!first) throw new Error("no page");
  const shared = (p: BalanceChangeWindow) => [
    p.openingBalance,
    p.closingBalance,
    p.windowStart,
    p.windowEnd,
    p.totalCount,
    p.totalCountIsExact,
  ];
  for (const page of pages) expect(shared(page)).toEqual(shared(first));
  const data = pages.flatMap((p) => p.data);
  expect(first.openingBalance.amount + total(data.map((c) => c.amount))).toBe(first.closingBalance.amount);
  expect(first.totalCount).toBe(data.length);
  return { pages, data, opening: first.openingBalance.amount, closing: first.closingBalance.amount };
}

const historyArb = fc.record({
  anchor: fc.constantFrom(...ANCHORS),
  postings: fc.array(
    fc.record({
      offset: fc.oneof(fc.integer({ min: -3 * DAY, max: 3 * DAY }), fc.constantFrom(-1, 0, 1)),
      amount: fc.integer({ min: -50_000, max: 50_000 }).filter((n) => n !== 0),
      fee: fc.integer({ min: -500, max: 0 }),
      backdate: fc.integer({ min: 0, max: LAG_MS }),
      withPrevious: fc.boolean(),
    }),
    { minLength: 1, maxLength: 20 },
  ),
  cuts: fc.array(
    fc.oneof(
      fc.record({ at: fc.integer({ min: -3 * DAY - HOUR, max: 3 * DAY + HOUR }) }),
      fc.record({ change: fc.nat() }),
      fc.constant({ at: 0 }),
    ),
    { maxLength: 5 },
  ),
  limit: fc.integer({ min: 1, max: 7 }),
});

describe("statement window properties", () => {
  test(
    "openingBalance + sum(amount) == closingBalance for every window and page split, and consecutive windows tile",
    async () => {
      await fc.assert(
        fc.asyncProperty(historyArb, async ({ anchor, postings, cuts, limit }) => {
          const accountId = await usdAccount(client);
          const base = Date.parse(anchor);
          // Recorded in the order the ledger would see them: effectiveAt plus a backdate within the lag,
          // neighbours marked withPrevious posted concurrently.
          const planned = postings
            .map((p) => ({ ...p, effectiveAt: base + p.offset, recordedAt: base + p.offset + p.backdate }))
            .sort((a, b) => a.recordedAt - b.recordedAt);
          const posted: Posted[] = [];
          let batch: typeof planned = [];
          const flush = async () => {
            const rows = await Promise.all(
              batch.map((p) =>
                postChange(server, platformId, accountId, {
                  amount: p.amount,
                  fee: Math.max(p.fee, Math.min(p.amount, 0)),
                  effectiveAt: new Date(p.effectiveAt),
                  now: new Date(p.recordedAt),
                }),
              ),
            );
            posted.push(
              ...rows.map((r) => ({ id: r.id, amount: r.amount, effectiveAt: r.effective_at.getTime() })),
            );
            batch = [];
          };
          for (const p of planned) {
            if (!p.withPrevious && batch.length > 0) await flush();
            batch.push(p);
          }
          await flush();

          const start = base - 3 * DAY - 2 * HOUR;
          const end = base + 3 * DAY + 2 * HOUR;
          const cutAt = cuts.map((c) =>
            "change" in c ? (posted[c.change % posted.length]?.effectiveAt ?? base) : base + c.at,
          );
          // The anchor (a DST change or a month start) is always a cut, so windows end and start on it.
          const bounds = [...new Set([start, base, ...cutAt, end])].sort((a, b) => a - b);
          const seen: string[] = [];
          let previousClosing = 0;
          for (let i = 0; i + 1 < bounds.length; i++) {
            const from = bounds[i] ?? 0;
            const to = bounds[i + 1] ?? 0;
            const paged = await readWindow(accountId, from, to, limit);
            const whole = await readWindow(accountId, from, to, 200);
            expect(paged.data).toEqual(whole.data);
            const expected = posted.filter((p) => p.effectiveAt >= from && p.effectiveAt < to).sort(inOrder);
            expect(paged.data.map((c) => c.id)).toEqual(expected.map((p) => p.id));
            expect(paged.opening).toBe(previousClosing);
            previousClosing = paged.closing;
            seen.push(...paged.data.map((c) => c.id));
          }
          expect(previousClosing).toBe(total(posted));
          expect([...seen].sort()).toEqual(posted.map((p) => p.id).sort());
        }),
        { numRuns: sizes.statementWindowRuns, endOnFailure: true },
      );
    },
    timeoutFor(sizes.statementWindowRuns, 3_000),
  );

  test(
    "a closed window's answer never changes after more postings, including ones backdated within the lag",
    async () => {
      let now = Date.parse(NOW);
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              advance: fc.integer({ min: 0, max: 2 * LAG_MS }),
              changes: fc.array(
                fc.record({
                  amount: fc.integer({ min: -20_000, max: 20_000 }).filter((n) => n !== 0),
                  backdate: fc.oneof(fc.integer({ min: 0, max: LAG_MS }), fc.constant(LAG_MS)),
                  viaFunding: fc.boolean(),
                }),
                { minLength: 1, maxLength: 3 },
              ),
              windowEndBack: fc.oneof(fc.constant(LAG_MS), fc.integer({ min: 0, max: 2 * LAG_MS })),
              windowStartBack: fc.integer({ min: 1, max: 10 * LAG_MS }),
              limit: fc.integer({ min: 1, max: 5 }),
            }),
            { minLength: 2, maxLength: 8 },
          ),
          async (steps) => {
            const accountId = await usdAccount(client);
            const snapshots: { from: number; to: number; limit: number; answer: BalanceChangeWindow[] }[] =
              [];
            const live = async (step: (typeof steps)[number]) => {
              now += step.advance + 1;
              await setClock(client, new Date(now));
              await Promise.all(
                step.changes.map((c) =>
                  c.viaFunding
                    ? client.post(`/sandbox/internal-accounts/${accountId}/fund`, {
                        amount: Math.abs(c.amount),
                      })
                    : postChange(server, platformId, accountId, {
                        amount: c.amount,
                        effectiveAt: new Date(now - c.backdate),
                        now: new Date(now),
                      }),
                ),
              );
            };
            for (const step of steps) {
              await live(step);
              // Any window the service answers must be final; one ending exactly the lag before now is the
              // most exposed, since a change backdated by the full lag lands exactly on its end.
              const to = now - step.windowEndBack;
              const from = to - step.windowStartBack;
              const probe = await client.get(windowPath(accountId, new Date(from), new Date(to)));
              if (step.windowEndBack < LAG_MS) {
                expect(probe.status).toBe(409);
                expect(probe.headers.get("retry-after")).toBe(
                  String(Math.ceil((LAG_MS - step.windowEndBack) / 1000)),
                );
                continue;
              }
              const { pages } = await readWindow(accountId, from, to, step.limit);
              snapshots.push({ from, to, limit: step.limit, answer: pages });
            }
            for (const step of steps) await live(step);
            for (const s of snapshots) {
              const again = await allPages(client, accountId, new Date(s.from), new Date(s.to), s.limit);
              expect(again).toEqual(s.answer);
            }
          },
        ),
        { numRuns: sizes.closedWindowRuns, endOnFailure: true },
      );
    },
    timeoutFor(sizes.closedWindowRuns, 3_000),
  );
});
