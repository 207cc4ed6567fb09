import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ControlledClock } from "../../src/core/clock.js";
import { JobRunner } from "../../src/core/jobs/jobs.js";
import { jobHandlers } from "../../src/jobs.js";
import { claimDue } from "../../src/webhooks/claim.js";
import { recordAttempts } from "../../src/webhooks/delivery.js";
import { DELIVER_JOB, enqueueEvents } from "../../src/webhooks/outbox.js";
import { startServer, type TestServer } from "../harness.js";
import { platformWithReceiver } from "./helpers.js";

// Issue 20: a delivery row is its own job, claimed and recorded in bulk (src/webhooks/dispatcher.ts).

const clock = new ControlledClock();
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ clock });
});
afterAll(() => server.close());

/**
 * Events due only on a clock an hour ahead of the server's, so the harness's own runner leaves them alone,
 * and runners on that clock (never started: they run only when asked) for the given platforms only.
 */
function anHourAhead() {
  const offset = clock.now().getTime() - Date.now() + 60 * 60_000;
  const at = (ms = 0) => new Date(Date.now() + offset + ms);
  const deps = { ...server.deps, clock: { now: () => at() } };
  return {
    deps,
    produce: (platformId: string, count: number, laterMs = 0) => {
      const now = at(laterMs);
      const events = Array.from({ length: count }, (_unused, i) => ({
        platformId,
        type: "CARD.STATUS_CHANGE" as const,
        data: { i },
        now,
      }));
      return server.db.transaction((tx) => enqueueEvents(tx, events));
    },
    runner: (...platformIds: string[]) =>
      new JobRunner(deps, jobHandlers(), { platformIds: new Set(platformIds) }),
  };
}

describe("webhook deliveries are dispatched in bulk (issue 20)", () => {
  test("one claim leases as many due deliveries as it may take, the oldest first", async () => {
    const { platform, receiver } = await platformWithReceiver(server);
    const ahead = anHourAhead();
    const older = await ahead.produce(platform.platformId, 40, -2_000);
    const newer = await ahead.produce(platform.platformId, 40, -1_000);
    const scope = new Set([platform.platformId]);
    const claimed = await claimDue(ahead.deps, { limit: 50, rooms: new Map(), defaultRoom: 50, scope });
    const events = claimed.map((d) => d.event_id);
    expect(events).toHaveLength(50);
    expect(older.every((id) => events.includes(id))).toBe(true);
    expect(events.filter((id) => newer.includes(id))).toHaveLength(10);
    await receiver.close();
  });

  test("two runners at once deliver every event of a backlog exactly once", async () => {
    const { platform, receiver } = await platformWithReceiver(server);
    const ahead = anHourAhead();
    const ids = await ahead.produce(platform.platformId, 200);
    const [a, b] = [ahead.runner(platform.platformId), ahead.runner(platform.platformId)];
    const ran = await Promise.all([a.runDue(), b.runDue()]);
    expect(ran[0] + ran[1]).toBe(200);
    const received = receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id);
    expect(received.sort()).toEqual([...ids].sort());
    await receiver.close();
  });

  test("a platform with no room left holds back no other platform's deliveries, however long its backlog", async () => {
    const busy = await platformWithReceiver(server);
    const other = await platformWithReceiver(server);
    const ahead = anHourAhead();
    await ahead.produce(busy.platform.platformId, 300);
    const [waiting] = await ahead.produce(other.platform.platformId, 1);
    const claimed = await claimDue(ahead.deps, {
      limit: 10,
      rooms: new Map([[busy.platform.platformId, 0]]),
      defaultRoom: 10,
      scope: new Set([busy.platform.platformId, other.platform.platformId]),
    });
    expect(claimed.map((d) => d.event_id)).toEqual([waiting]);
    await Promise.all([busy.receiver.close(), other.receiver.close()]);
  });

  test("recording the same attempts twice writes them once (a record applies only under the lease it names)", async () => {
    const { platform, client, receiver } = await platformWithReceiver(server);
    const ahead = anHourAhead();
    const [eventId] = await ahead.produce(platform.platformId, 1);
    const [delivery] = await claimDue(ahead.deps, {
      limit: 1,
      rooms: new Map(),
      defaultRoom: 1,
      scope: new Set([platform.platformId]),
    });
    if (!delivery) throw new Error("nothing claimed");
    const at = ahead.deps.clock.now();
    const result = { ok: true as const, status: 200, body: "", latencyMs: 3 };
    const record = {
      deliveryId: delivery.id,
      lease: delivery.lease,
      attempt: { number: 1, url: receiver.url, result, error: null },
      outcome: { state: "DELIVERED" as const },
      at,
    };
    await recordAttempts(server.db, [record]);
    await recordAttempts(server.db, [record]);
    const page = await client.get<{ data: { state: string; attempts: unknown[] }[] }>(
      `/webhooks/deliveries?eventId=${encodeURIComponent(String(eventId))}`,
    );
    expect(page.body.data.map((d) => [d.state, d.attempts.length])).toEqual([["DELIVERED", 1]]);
    await receiver.close();
  });

  test("a delivery job written before deliveries were their own jobs ends without a second send", async () => {
    const { platform, receiver } = await platformWithReceiver(server);
    const ahead = anHourAhead();
    const [eventId] = await ahead.produce(platform.platformId, 1);
    const [delivery] = await server.db.query<{ id: string }>(
      "SELECT id FROM webhook_deliveries WHERE event_id = $1",
      [eventId],
    );
    const jobId = randomUUID();
    await server.db.query(
      `INSERT INTO jobs (id, platform_id, kind, payload, run_at, state, attempts, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'PENDING', 0, $5, $5)`,
      [jobId, platform.platformId, DELIVER_JOB, { deliveryId: delivery?.id }, ahead.deps.clock.now()],
    );
    const runner = ahead.runner(platform.platformId);
    await runner.runDue();
    await runner.runDue();
    expect(receiver.received).toHaveLength(1);
    const [job] = await server.db.query<{ state: string }>("SELECT state FROM jobs WHERE id = $1", [jobId]);
    expect(job?.state).toBe("DONE");
    await receiver.close();
  });

  test("deliveries one after another to one endpoint share one kept-alive connection", async () => {
    const { platform, receiver } = await platformWithReceiver(server);
    const ahead = anHourAhead();
    const runner = ahead.runner(platform.platformId);
    const before = receiver.connections();
    for (let i = 0; i < 3; i++) {
      await ahead.produce(platform.platformId, 1);
      expect(await runner.runDue()).toBe(1);
    }
    expect(receiver.received).toHaveLength(3);
    expect(receiver.connections() - before).toBeLessThanOrEqual(1);
    await receiver.close();
  });
});
