import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ControlledClock } from "../../src/core/clock.js";
import { JobRunner } from "../../src/core/jobs/jobs.js";
import { jobHandlers } from "../../src/jobs.js";
import { enqueueEvent } from "../../src/webhooks/outbox.js";
import { startServer, type TestServer } from "../harness.js";
import { eventually, platformWithReceiver, produce, signatureT, verified } from "./helpers.js";
import { startReceiver, status } from "./receiver.js";

type Delivery = {
  state: string;
  attempts: { statusCode: number | null; error: string | null; latencyMs: number }[];
};
type DeliveryPage = { data: Delivery[] };

const clock = new ControlledClock();
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ clock, webhookTimeouts: { connectTimeoutMs: 1_000, totalTimeoutMs: 400 } });
});
afterAll(() => server.close());

async function deliveryOf(client: TestServer["client"], eventId: string): Promise<Delivery> {
  const page = await client.get<DeliveryPage>(`/webhooks/deliveries?eventId=${encodeURIComponent(eventId)}`);
  const [delivery] = page.body.data;
  if (!delivery) throw new Error(`no delivery for ${eventId}`);
  return delivery;
}

/** Moves the service clock past the longest first retry wait (30 s × 1.25), then runs what is due. */
async function nextRetry() {
  clock.advance(60_000);
  await server.jobs.runDue();
}

describe("webhook delivery (conventions §7.1, §7.2)", () => {
  test("a committed event is POSTed as application/json with an X-Service-Signature the SDK verifies", async () => {
    const { platform, client, receiver } = await platformWithReceiver(server);
    const eventId = await produce(server, platform.platformId);
    await eventually(() => expect(receiver.received.length).toBe(1));
    const [received] = receiver.received;
    if (!received) throw new Error("nothing received");
    expect(received.headers["content-type"]).toBe("application/json");
    const event = await verified(server, client, received);
    expect(event).toMatchObject({ id: eventId, type: "CARD.STATUS_CHANGE" });
    await receiver.close();
  });

  test("retry after 500: the body is byte-identical on every attempt and each attempt has a fresh t", async () => {
    const { platform, client, receiver } = await platformWithReceiver(server, (n, res) => {
      res.statusCode = n === 0 ? 500 : 200;
      res.end();
    });
    const eventId = await produce(server, platform.platformId);
    await eventually(async () => expect((await deliveryOf(client, eventId)).attempts).toHaveLength(1));
    await nextRetry();
    await eventually(() => expect(receiver.received.length).toBe(2));
    const [first, second] = receiver.received;
    if (!first || !second) throw new Error("missing attempts");
    expect(second.body).toBe(first.body);
    expect(signatureT(second)).toBeGreaterThan(signatureT(first));
    await verified(server, client, second);
    await eventually(async () => {
      const delivery = await deliveryOf(client, eventId);
      expect(delivery.state).toBe("DELIVERED");
      expect(delivery.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
    });
    await receiver.close();
  });

  test("retry after a timeout: no answer within the total timeout is retried", async () => {
    const { platform, client, receiver } = await platformWithReceiver(server, (n, res) => {
      if (n === 0) setTimeout(() => res.end(), 1_500);
      else res.end();
    });
    const eventId = await produce(server, platform.platformId);
    await eventually(async () =>
      expect((await deliveryOf(client, eventId)).attempts[0]?.error).toBe("TIMEOUT"),
    );
    expect(receiver.received).toHaveLength(1);
    await nextRetry();
    await eventually(async () => expect((await deliveryOf(client, eventId)).state).toBe("DELIVERED"));
    await receiver.close();
  });

  test("a 409 from the receiver stops retries", async () => {
    const { platform, client, receiver } = await platformWithReceiver(server, status(409));
    const eventId = await produce(server, platform.platformId);
    await eventually(async () => expect((await deliveryOf(client, eventId)).state).toBe("DELIVERED"));
    await nextRetry();
    await nextRetry();
    expect(receiver.received).toHaveLength(1);
    await receiver.close();
  });

  test("redirects are never followed: a 302 is a failed attempt and is retried", async () => {
    const target = await startReceiver();
    const { platform, client, receiver } = await platformWithReceiver(server, (_n, res) => {
      res.writeHead(302, { location: target.url }).end();
    });
    const eventId = await produce(server, platform.platformId);
    await eventually(async () => {
      const delivery = await deliveryOf(client, eventId);
      expect(delivery.state).toBe("PENDING");
      expect(delivery.attempts.map((a) => a.statusCode)).toEqual([302]);
    });
    expect(target.received).toHaveLength(0);
    await Promise.all([receiver.close(), target.close()]);
  });

  test("retries stop 7 days after the first attempt and the delivery is FAILED", async () => {
    const { platform, client, receiver } = await platformWithReceiver(server, status(503));
    const eventId = await produce(server, platform.platformId);
    await eventually(async () => expect((await deliveryOf(client, eventId)).attempts).toHaveLength(1));
    clock.advance(7 * 24 * 60 * 60_000);
    await server.jobs.runDue();
    await eventually(async () => expect((await deliveryOf(client, eventId)).state).toBe("FAILED"));
    expect((await deliveryOf(client, eventId)).attempts).toHaveLength(2);
    await receiver.close();
  });

  test("an event raised while no endpoint is set is recorded as undeliverable and never sent", async () => {
    const platform = await server.newPlatform();
    const eventId = await produce(server, platform.platformId);
    const delivery = await deliveryOf(server.client.as(platform), eventId);
    expect(delivery).toMatchObject({ state: "UNDELIVERABLE", attempts: [] });
    const jobs = await server.db.query("SELECT 1 FROM jobs WHERE platform_id = $1", [platform.platformId]);
    expect(jobs).toHaveLength(0);
  });

  test("nothing is delivered for a rolled-back producer transaction", async () => {
    const { platform, receiver } = await platformWithReceiver(server);
    const now = server.deps.clock.now();
    await expect(
      server.db.transaction(async (tx) => {
        await enqueueEvent(tx, {
          platformId: platform.platformId,
          type: "CARD.STATUS_CHANGE",
          data: {},
          now,
        });
        throw new Error("producer failed");
      }),
    ).rejects.toThrow("producer failed");
    await server.jobs.runDue();
    const events = await server.db.query(
      "SELECT 1 FROM webhook_events WHERE platform_id = $1 AND type <> 'TEST'",
      [platform.platformId],
    );
    expect(events).toHaveLength(0);
    expect(receiver.received).toHaveLength(0);
    await receiver.close();
  });

  test("two job runners never deliver one event twice at once", async () => {
    const { platform, receiver } = await platformWithReceiver(server, (_n, res) => {
      setTimeout(() => res.end(), 50);
    });
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await produce(server, platform.platformId));
    const other = new JobRunner(server.deps, jobHandlers(), { platformIds: server.platformIds });
    await Promise.all([other.runDue(), server.jobs.runDue(), other.runDue()]);
    await eventually(() => expect(receiver.received.length).toBe(6));
    const received = receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id);
    expect(received.sort()).toEqual([...ids].sort());
    await receiver.close();
  });

  test("a delivery being sent is leased: another runner does not send it again meanwhile", async () => {
    const held = holdAnswers();
    const { platform, client, receiver } = await platformWithReceiver(server, held.responder);
    const ahead = runnersAhead();
    const eventId = await ahead.produce(platform.platformId);
    const [a, b] = [ahead.runner(), ahead.runner()];
    const sending = a.runDue();
    await eventually(() => expect(receiver.received).toHaveLength(1));
    expect(await b.runDue()).toBe(0);
    held.release();
    expect(await sending).toBe(1);
    expect(await Promise.all([a.runDue(), b.runDue()])).toEqual([0, 0]);
    expect(receiver.received).toHaveLength(1);
    expect((await deliveryOf(client, eventId)).state).toBe("DELIVERED");
    await receiver.close();
  });

  test("a lease that ran out (its sender died mid-send) lets another runner send the delivery, and only that runner's attempt is recorded", async () => {
    const held = holdAnswers();
    const { platform, client, receiver } = await platformWithReceiver(server, held.responder);
    const ahead = runnersAhead();
    const eventId = await ahead.produce(platform.platformId);
    const dead = ahead.runner();
    const sending = dead.runDue();
    await eventually(() => expect(receiver.received).toHaveLength(1));
    // Past the send lease (SEND_LEASE_MS, one minute): the first sender counts as dead.
    const survivor = ahead.runner(2 * 60_000);
    const takeover = survivor.runDue();
    await eventually(() => expect(receiver.received).toHaveLength(2));
    held.release();
    expect(await takeover).toBe(1);
    expect(await sending).toBe(1);
    const delivery = await deliveryOf(client, eventId);
    expect(delivery.state).toBe("DELIVERED");
    expect(delivery.attempts).toHaveLength(1);
    await receiver.close();
  });

  test("a receiver that does not answer holds back no other platform's deliveries", async () => {
    const stuck = holdAnswers();
    const slow = await platformWithReceiver(server, stuck.responder);
    const fast = await platformWithReceiver(server);
    const ahead = runnersAhead({ connectTimeoutMs: 1_000, totalTimeoutMs: 30_000 });
    for (let i = 0; i < 3; i++) await ahead.produce(slow.platform.platformId);
    const fastEvent = await ahead.produce(fast.platform.platformId);
    const running = ahead.runner().runDue();
    await eventually(async () => {
      expect(slow.receiver.received).toHaveLength(3);
      expect((await deliveryOf(fast.client, fastEvent)).state).toBe("DELIVERED");
    });
    expect(stuck.answered()).toBe(0);
    stuck.release();
    expect(await running).toBe(4);
    await Promise.all([slow.receiver.close(), fast.receiver.close()]);
  });
});

/** A responder that answers nothing (after the endpoint's TEST) until released, then 200 to everything. */
function holdAnswers() {
  const waiting: ServerResponse[] = [];
  let released = false;
  let answered = 0;
  const answer = (res: ServerResponse) => {
    answered += 1;
    res.end();
  };
  return {
    responder: (_n: number, res: ServerResponse) => (released ? answer(res) : waiting.push(res)),
    release: () => {
      released = true;
      for (const res of waiting.splice(0)) answer(res);
    },
    answered: () => answered,
  };
}

/**
 * Runners whose clock is an hour ahead, and events due only then: the harness's own runner leaves them
 * alone, so these runners alone decide who sends what. `runner(ms)` is that much further ahead.
 */
function runnersAhead(timeouts = { connectTimeoutMs: 1_000, totalTimeoutMs: 10_000 }) {
  const offset = clock.now().getTime() - Date.now() + 60 * 60_000;
  const at = (ms: number) => ({ now: () => new Date(Date.now() + offset + ms) });
  return {
    produce: (platformId: string) =>
      server.db.transaction((tx) =>
        enqueueEvent(tx, { platformId, type: "CARD.STATUS_CHANGE", data: {}, now: at(0).now() }),
      ),
    runner: (ms = 0) =>
      new JobRunner({ ...server.deps, clock: at(ms), webhookTimeouts: timeouts }, jobHandlers(), {
        platformIds: server.platformIds,
      }),
  };
}
