import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../../server/test/harness.js";
import { produce } from "../../server/test/webhooks/helpers.js";
import { startReceiver } from "../../server/test/webhooks/receiver.js";
import { PaysvcClient } from "../src/node.js";

let server: TestServer;
let paysvc: PaysvcClient;
beforeAll(async () => {
  server = await startServer();
  paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...server.platform });
});
afterAll(() => server.close());

describe("sdk.webhooks against the real server", () => {
  test("sdk.webhooks.verify checks a real delivery with the JWKS it fetches and caches", async () => {
    const receiver = await startReceiver();
    await paysvc.config.update({ webhookEndpoint: receiver.url });
    const eventId = await produce(server, server.platform.platformId);
    await eventuallyTrue(() => receiver.received.some((r) => r.body.includes(eventId)));
    for (const received of receiver.received) {
      const event = await paysvc.webhooks.verify(received.body, received.headers);
      expect(event.id).toMatch(/^Webhook:/);
    }
    await receiver.close();
  });

  test("sdk.webhooks.verify of another platform's client rejects this platform's delivery: each platform has its own keys", async () => {
    const receiver = await startReceiver();
    await paysvc.config.update({ webhookEndpoint: receiver.url });
    const eventId = await produce(server, server.platform.platformId);
    await eventuallyTrue(() => receiver.received.some((r) => r.body.includes(eventId)));
    const other = new PaysvcClient({ baseUrl: server.baseUrl, ...(await server.newPlatform()) });
    const ours = (await paysvc.webhooks.signingKeys()).keys.map((k) => k.kid);
    const theirs = (await other.webhooks.signingKeys()).keys.map((k) => k.kid);
    expect(theirs.filter((kid) => ours.includes(kid))).toEqual([]);
    for (const received of receiver.received) {
      await expect(other.webhooks.verify(received.body, received.headers)).rejects.toMatchObject({
        reason: "UNKNOWN_KEY",
      });
      expect((await paysvc.webhooks.verify(received.body, received.headers)).id).toMatch(/^Webhook:/);
    }
    await receiver.close();
  });

  test("sendTest, listDeliveries and resendDelivery", async () => {
    const receiver = await startReceiver();
    await paysvc.config.update({ webhookEndpoint: receiver.url });
    const result = await paysvc.webhooks.sendTest();
    expect(result).toMatchObject({ url: receiver.url, response_status: 200 });
    const page = await paysvc.webhooks.listDeliveries({ limit: 1 });
    const [latest] = page.data;
    if (!latest) throw new Error("no delivery");
    const resent = await paysvc.webhooks.resendDelivery(latest.id);
    expect(resent.eventId).toBe(latest.eventId);
    expect((await paysvc.webhooks.getDelivery(resent.id)).eventId).toBe(latest.eventId);
    await receiver.close();
  });
});

async function eventuallyTrue(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(check()).toBe(true);
}
