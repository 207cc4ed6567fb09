import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type EventType, enqueueEvent } from "../../src/webhooks/outbox.js";
import { type Credentials, startServer, type TestClient, type TestServer } from "../harness.js";
import { eventually, platformWithReceiver, produce } from "./helpers.js";

// Issue 22 §3, "Events you can see": GET /events and GET /events/{id} (docs/decisions.md "Events").

type Envelope = { id: string; type: string; timestamp: string; data: Record<string, unknown> };
type EventPage = { data: Envelope[]; hasMore: boolean; nextCursor?: string; totalCount: number };
type ErrorBody = { code: string; details?: { errors: { field: string; constraint?: unknown }[] } };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** A fresh platform with no endpoint: its events are recorded, never sent. */
async function quietPlatform(): Promise<{ platform: Credentials; client: TestClient }> {
  const platform = await server.newPlatform();
  return { platform, client: server.client.as(platform) };
}

/** One event of `type` raised at `at` (the platform's now when the work happened). */
function raiseAt(platformId: string, type: EventType, at: string): Promise<string> {
  const now = new Date(at);
  const data = { id: `Card:${crypto.randomUUID()}`, status: "ACTIVE", updatedAt: now.toISOString() };
  return server.db.transaction((tx) => enqueueEvent(tx, { platformId, type, data, now }));
}

const ids = (page: EventPage) => page.data.map((e) => e.id);

describe("GET /events and GET /events/{id}", () => {
  test("an event is listed and read as exactly the envelope its delivery carried", async () => {
    const { platform, client, receiver } = await platformWithReceiver(server);
    const eventId = await produce(server, platform.platformId);
    await eventually(() => expect(receiver.received).toHaveLength(1));
    const delivered = JSON.parse(receiver.received[0]?.body ?? "") as Envelope;
    expect(delivered.id).toBe(eventId);

    const list = await client.get<EventPage>("/events?type=CARD.STATUS_CHANGE");
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([delivered]);
    const one = await client.get<Envelope>(`/events/${encodeURIComponent(eventId)}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(delivered);
    expect(Object.keys(one.body)).toEqual(["id", "type", "timestamp", "data"]);
    // A raw id (with its `:`) reads the same.
    expect((await client.get<Envelope>(`/events/${eventId}`)).body).toEqual(delivered);
    await receiver.close();
  });

  test("events raised while no endpoint is set are listed too", async () => {
    const { platform, client } = await quietPlatform();
    const eventId = await produce(server, platform.platformId, "CARD.PIN_STATUS_CHANGE");
    const list = await client.get<EventPage>("/events");
    expect(list.body).toMatchObject({ totalCount: 1, hasMore: false });
    expect(list.body.data[0]).toMatchObject({ id: eventId, type: "CARD.PIN_STATUS_CHANGE" });
  });

  test("a platform lists only its own events", async () => {
    const { platform, client } = await quietPlatform();
    const other = await quietPlatform();
    const ours = await produce(server, platform.platformId);
    await produce(server, other.platform.platformId);
    const page = (await client.get<EventPage>("/events")).body;
    expect(ids(page)).toEqual([ours]);
    expect(page.totalCount).toBe(1);
  });

  test("another platform's event id is 404 NOT_FOUND", async () => {
    const { platform } = await quietPlatform();
    const eventId = await produce(server, platform.platformId);
    const res = await server.client.get<ErrorBody>(`/events/${encodeURIComponent(eventId)}`);
    expect([res.status, res.body.code]).toEqual([404, "NOT_FOUND"]);
  });

  test.each([
    ["a missing id", `Webhook:${crypto.randomUUID()}`],
    ["an overlong id", "x".repeat(500)],
    ["a malformed id", "Event:%00"],
  ])("%s gets the same 404 NOT_FOUND", async (_name, id) => {
    const res = await server.client.get<ErrorBody>(`/events/${id}`);
    expect([res.status, res.body.code]).toEqual([404, "NOT_FOUND"]);
  });

  test("type filters by one event type, or by several when repeated", async () => {
    const { platform, client } = await quietPlatform();
    const status = await produce(server, platform.platformId, "CARD.STATUS_CHANGE");
    const pin = await produce(server, platform.platformId, "CARD.PIN_STATUS_CHANGE");
    await produce(server, platform.platformId, "CUSTOMER.KYC_APPROVED");
    const one = (await client.get<EventPage>("/events?type=CARD.PIN_STATUS_CHANGE")).body;
    expect([ids(one), one.totalCount]).toEqual([[pin], 1]);
    const two = (
      await client.get<EventPage>("/events?type=CARD.STATUS_CHANGE&type=CARD.PIN_STATUS_CHANGE&sortOrder=asc")
    ).body;
    expect([ids(two), two.totalCount]).toEqual([[status, pin], 2]);
  });

  test("createdAfter and createdBefore are inclusive bounds, with any offset", async () => {
    const { platform, client } = await quietPlatform();
    const first = await raiseAt(platform.platformId, "CARD.STATUS_CHANGE", "2026-03-01T10:00:00.000Z");
    const second = await raiseAt(platform.platformId, "CARD.STATUS_CHANGE", "2026-03-01T11:00:00.000Z");
    const third = await raiseAt(platform.platformId, "CARD.STATUS_CHANGE", "2026-03-01T12:00:00.000Z");
    const between = await client.get<EventPage>(
      "/events?createdAfter=2026-03-01T11:00:00Z&createdBefore=2026-03-01T11:00:00.000Z",
    );
    expect(ids(between.body)).toEqual([second]);
    const after = await client.get<EventPage>(
      `/events?createdAfter=${encodeURIComponent("2026-03-01T12:00:00+01:00")}`,
    );
    expect(ids(after.body)).toEqual([third, second]);
    const before = await client.get<EventPage>(
      `/events?createdBefore=${encodeURIComponent("2026-03-01T06:00:00-05:00")}`,
    );
    expect(ids(before.body)).toEqual([second, first]);
    expect(after.body.data[0]?.timestamp).toBe("2026-03-01T12:00:00.000Z");
  });

  test("pages follow the list convention: limit, cursor, hasMore, nextCursor only when more, totalCount", async () => {
    const { platform, client } = await quietPlatform();
    const raised = [
      await raiseAt(platform.platformId, "CARD.STATUS_CHANGE", "2026-04-01T10:00:00.000Z"),
      await raiseAt(platform.platformId, "CARD.STATUS_CHANGE", "2026-04-01T10:00:01.000Z"),
      await raiseAt(platform.platformId, "CARD.STATUS_CHANGE", "2026-04-01T10:00:02.000Z"),
    ];
    const first = (await client.get<EventPage>("/events?limit=2")).body;
    expect(first).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(ids(first)).toEqual([raised[2], raised[1]]);
    const cursor = encodeURIComponent(first.nextCursor ?? "");
    const second = (await client.get<EventPage>(`/events?limit=2&cursor=${cursor}`)).body;
    expect(second).toEqual({
      data: [expect.objectContaining({ id: raised[0] })],
      hasMore: false,
      totalCount: 3,
    });
    const asc = (await client.get<EventPage>("/events?sortOrder=asc&limit=1")).body;
    expect(ids(asc)).toEqual([raised[0]]);
  });

  test("a cursor from other filters or another platform is 400 INVALID_INPUT on cursor", async () => {
    const { platform, client } = await quietPlatform();
    await produce(server, platform.platformId);
    await produce(server, platform.platformId);
    const { nextCursor } = (await client.get<EventPage>("/events?limit=1")).body;
    const cursor = encodeURIComponent(nextCursor ?? "");
    for (const res of [
      await client.get<ErrorBody>(`/events?limit=1&type=TEST&cursor=${cursor}`),
      await server.client.get<ErrorBody>(`/events?limit=1&cursor=${cursor}`),
      await client.get<ErrorBody>("/events?cursor=not-a-cursor"),
    ]) {
      expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
      expect(res.body.details?.errors.map((e) => e.field)).toEqual(["cursor"]);
    }
  });

  test("bad parameters get 400 INVALID_INPUT with one FieldError each, all in one response", async () => {
    const res = await server.client.get<ErrorBody>(
      "/events?type=CARD.NOPE&createdAfter=2026-03-01T10:00:00&createdBefore=yesterday&limit=0&sortOrder=up&color=red",
    );
    expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
    const errors = res.body.details?.errors ?? [];
    expect(errors.map((e) => e.field).sort()).toEqual(
      ["color", "createdAfter", "createdBefore", "limit", "sortOrder", "type"].sort(),
    );
    expect(errors.find((e) => e.field === "createdAfter")?.constraint).toEqual({ format: "date-time" });
    expect(errors.find((e) => e.field === "type")?.constraint).toMatchObject({
      enum: expect.arrayContaining(["CARD.STATUS_CHANGE", "TEST"]),
    });
  });

  test("one bad type among several is a FieldError on that entry", async () => {
    const res = await server.client.get<ErrorBody>("/events?type=TEST&type=CARD.NOPE");
    expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["type[1]"]);
  });
});

describe("GET /webhooks/deliveries?type", () => {
  test("type filters deliveries by their event's type, one or several", async () => {
    const { platform, client } = await quietPlatform();
    const status = await produce(server, platform.platformId, "CARD.STATUS_CHANGE");
    const pin = await produce(server, platform.platformId, "CARD.PIN_STATUS_CHANGE");
    await produce(server, platform.platformId, "CUSTOMER.KYC_APPROVED");
    type Deliveries = { data: { eventId: string; eventType: string }[]; totalCount: number };
    const one = (await client.get<Deliveries>("/webhooks/deliveries?type=CARD.STATUS_CHANGE")).body;
    expect(one.data.map((d) => [d.eventId, d.eventType])).toEqual([[status, "CARD.STATUS_CHANGE"]]);
    expect(one.totalCount).toBe(1);
    const two = (
      await client.get<Deliveries>(
        "/webhooks/deliveries?type=CARD.STATUS_CHANGE&type=CARD.PIN_STATUS_CHANGE&sortOrder=asc",
      )
    ).body;
    expect(two.data.map((d) => d.eventId)).toEqual([status, pin]);
  });

  test("an unknown type on the deliveries list is 400 INVALID_INPUT on type", async () => {
    const res = await server.client.get<ErrorBody>("/webhooks/deliveries?type=CARD.NOPE");
    expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["type"]);
  });
});
