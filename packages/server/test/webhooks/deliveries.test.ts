import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { eventually, platformWithReceiver, produce } from "./helpers.js";

type Delivery = {
  id: string;
  eventId: string;
  eventType: string;
  state: string;
  attempts: { attempt: number; url: string; statusCode: number | null; latencyMs: number }[];
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("delivery log and re-send (docs/decisions.md Webhooks)", () => {
  test("GET /webhooks/deliveries lists each delivery with its attempts: number, status and latency", async () => {
    const { platform, client, receiver } = await platformWithReceiver(server);
    const eventId = await produce(server, platform.platformId);
    await eventually(async () => {
      const page = await client.get<{ data: Delivery[]; totalCount: number }>(
        `/webhooks/deliveries?eventId=${eventId}`,
      );
      expect(page.body.totalCount).toBe(1);
      const [delivery] = page.body.data;
      expect(delivery).toMatchObject({ eventId, eventType: "CARD.STATUS_CHANGE", state: "DELIVERED" });
      expect(delivery?.attempts).toEqual([
        expect.objectContaining({
          attempt: 1,
          url: receiver.url,
          statusCode: 200,
          latencyMs: expect.any(Number),
        }),
      ]);
    });
    await receiver.close();
  });

  test("POST /webhooks/deliveries/{id}/resend delivers the same event id and bytes again", async () => {
    const { platform, client, receiver } = await platformWithReceiver(server);
    const eventId = await produce(server, platform.platformId);
    await eventually(() => expect(receiver.received).toHaveLength(1));
    const [delivery] = (await client.get<{ data: Delivery[] }>(`/webhooks/deliveries?eventId=${eventId}`))
      .body.data;
    const res = await client.post<Delivery>(
      `/webhooks/deliveries/${encodeURIComponent(delivery?.id ?? "")}/resend`,
    );
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ eventId, state: "PENDING" });
    expect(res.body.id).not.toBe(delivery?.id);
    await eventually(() => expect(receiver.received).toHaveLength(2));
    expect(receiver.received[1]?.body).toBe(receiver.received[0]?.body);
    await receiver.close();
  });

  test("another platform's delivery is 404 NOT_FOUND", async () => {
    const { platform, client, receiver } = await platformWithReceiver(server);
    await produce(server, platform.platformId);
    const [delivery] = (await client.get<{ data: Delivery[] }>("/webhooks/deliveries")).body.data;
    const res = await server.client.get<{ code: string }>(
      `/webhooks/deliveries/${encodeURIComponent(delivery?.id ?? "")}`,
    );
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("NOT_FOUND");
    await receiver.close();
  });
  test.each([
    ["an overlong id", "x".repeat(500)],
    ["a malformed id", "Delivery:%00"],
  ])("%s gets the same 404 NOT_FOUND as a missing one, on GET and on resend", async (_name, id) => {
    const get = await server.client.get<{ code: string }>(`/webhooks/deliveries/${id}`);
    expect([get.status, get.body.code]).toEqual([404, "NOT_FOUND"]);
    const resend = await server.client.post<{ code: string }>(`/webhooks/deliveries/${id}/resend`);
    expect([resend.status, resend.body.code]).toEqual([404, "NOT_FOUND"]);
  });
});
