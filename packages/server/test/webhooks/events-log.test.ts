import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer, testLogger } from "../harness.js";
import { eventually, platformWithReceiver, produce } from "./helpers.js";
import { closedPortUrl, type Responder, status } from "./receiver.js";

// Issue 22 §3: a failed delivery attempt is logged at warn level with the platform, event and delivery
// ids and the outcome, never the payload, the signature or the endpoint URL.

type LogLine = Record<string, unknown> & { level: number; msg: string };

let server: TestServer;
const lines: LogLine[] = [];
const raw: string[] = [];

beforeAll(async () => {
  const stream = new PassThrough();
  let buffered = "";
  stream.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const parts = buffered.split("\n");
    buffered = parts.pop() ?? "";
    for (const part of parts.filter((p) => p.length > 0)) {
      raw.push(part);
      lines.push(JSON.parse(part) as LogLine);
    }
  });
  server = await startServer({
    logger: testLogger(stream),
    webhookTimeouts: { connectTimeoutMs: 1_000, totalTimeoutMs: 400 },
  });
});
afterAll(() => server.close());

const failedLines = (eventId: string) =>
  lines.filter((l) => l.msg === "webhook delivery attempt failed" && l.eventId === eventId);

/** A platform whose receiver answers every event (after the TEST) with `respond`; one event produced. */
async function failedDelivery(respond: Responder) {
  const { platform, client, receiver } = await platformWithReceiver(server, respond);
  const eventId = await produce(server, platform.platformId);
  await eventually(() => expect(failedLines(eventId)).toHaveLength(1));
  const [delivery] = (
    await client.get<{ data: { id: string }[] }>(
      `/webhooks/deliveries?eventId=${encodeURIComponent(eventId)}`,
    )
  ).body.data;
  const [line] = failedLines(eventId);
  return { platform, receiver, eventId, deliveryId: delivery?.id, line };
}

describe("failed deliveries are logged at warn", () => {
  test("an answer other than 2xx or 409 is logged at warn with platform, event, delivery and outcome", async () => {
    const { platform, receiver, eventId, deliveryId, line } = await failedDelivery(status(500, "boom"));
    expect(line).toMatchObject({
      level: 40,
      platformId: platform.platformId,
      eventId,
      deliveryId,
      eventType: "CARD.STATUS_CHANGE",
      attempt: 1,
      error: "HTTP_STATUS",
      statusCode: 500,
      state: "PENDING",
      nextAttemptAt: expect.any(String),
    });
    await receiver.close();
  });

  test("a timeout is logged with its error class", async () => {
    const { receiver, line } = await failedDelivery(() => {
      // Never answers: the 400 ms total timeout ends the attempt.
    });
    expect(line).toMatchObject({ level: 40, error: "TIMEOUT", state: "PENDING" });
    expect(line).not.toHaveProperty("statusCode");
    await receiver.close();
  });

  test("a connection error is logged with its error class", async () => {
    const platform = await server.newPlatform();
    const client = server.client.as(platform);
    expect((await client.patch("/config", { webhookEndpoint: await closedPortUrl() })).status).toBe(200);
    const eventId = await produce(server, platform.platformId);
    await eventually(() => expect(failedLines(eventId)).toHaveLength(1));
    expect(failedLines(eventId)[0]).toMatchObject({
      level: 40,
      platformId: platform.platformId,
      error: "CONNECTION_REFUSED",
    });
  });

  test("the failure line carries no payload, signature or endpoint URL", async () => {
    const { receiver, eventId } = await failedDelivery(status(503));
    const body = receiver.received.find((r) => r.body.includes(eventId));
    if (!body) throw new Error("the receiver got no attempt");
    const { data } = JSON.parse(body.body) as { data: { id: string } };
    const text = raw.filter((l) => l.includes(eventId) && l.includes("webhook delivery attempt failed"));
    expect(text).toHaveLength(1);
    expect(text[0]).not.toContain(data.id);
    expect(text[0]).not.toContain(receiver.url);
    expect(text[0]).not.toContain(String(body.headers["x-service-signature"]).split(",")[1]);
    await receiver.close();
  });

  test("a 2xx and a 409 answer are not logged as failed", async () => {
    const { platform, receiver } = await platformWithReceiver(server, (n, res) => {
      res.statusCode = n % 2 === 0 ? 409 : 202;
      res.end();
    });
    const conflicted = await produce(server, platform.platformId);
    await eventually(() => expect(receiver.received).toHaveLength(1));
    const accepted = await produce(server, platform.platformId);
    await eventually(() => expect(receiver.received).toHaveLength(2));
    const client = server.client.as(platform);
    await eventually(async () => {
      const page = await client.get<{ data: { state: string }[] }>("/webhooks/deliveries?state=DELIVERED");
      expect(page.body.data.length).toBeGreaterThanOrEqual(3);
    });
    expect([...failedLines(conflicted), ...failedLines(accepted)]).toEqual([]);
    await receiver.close();
  });
});
