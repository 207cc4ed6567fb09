import type { Static } from "typebox";
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from "vitest";
import type * as events from "../../server/src/webhooks/event-schemas.js";
import type * as webhooks from "../../server/src/webhooks/schemas.js";
import { startServer, type TestServer } from "../../server/test/harness.js";
import { eventually, platformWithReceiver, produce } from "../../server/test/webhooks/helpers.js";
import type * as sdk from "../src/index.js";
import { NotFoundError, PaysvcClient, type WebhookEvent } from "../src/index.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

test("SDK event types equal the server's TypeBox schemas", () => {
  expectTypeOf<sdk.ListEventsParams>().toEqualTypeOf<Static<typeof events.ListEventsQuery>>();
  expectTypeOf<WebhookEvent>().toEqualTypeOf<Static<typeof events.WebhookEvent>>();
  expectTypeOf<sdk.ListDeliveriesQuery>().toEqualTypeOf<Static<typeof webhooks.ListDeliveriesQuery>>();
});

describe("sdk.events against the real server", () => {
  test("sdk.events.list and get answer the envelope the delivery carried", async () => {
    const { platform, receiver } = await platformWithReceiver(server);
    const paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...platform });
    const eventId = await produce(server, platform.platformId);
    await eventually(() => expect(receiver.received).toHaveLength(1));
    const delivered = JSON.parse(receiver.received[0]?.body ?? "") as WebhookEvent;
    const page = await paysvc.events.list({ type: "CARD.STATUS_CHANGE" });
    expect(page.data).toEqual([delivered]);
    expect(page.totalCount).toBe(1);
    expect(await paysvc.events.get(eventId)).toEqual(delivered);
    await receiver.close();
  });

  test("sdk.events.listAll follows the cursor; several types are sent as a repeated parameter", async () => {
    const platform = await server.newPlatform();
    const paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...platform });
    const raised = [
      await produce(server, platform.platformId, "CARD.STATUS_CHANGE"),
      await produce(server, platform.platformId, "CARD.PIN_STATUS_CHANGE"),
      await produce(server, platform.platformId, "CUSTOMER.KYC_APPROVED"),
    ];
    const seen: string[] = [];
    for await (const event of paysvc.events.listAll({
      type: ["CARD.STATUS_CHANGE", "CARD.PIN_STATUS_CHANGE"],
      sortOrder: "asc",
      limit: 1,
    }))
      seen.push(event.id);
    expect(seen).toEqual(raised.slice(0, 2));
    const deliveries = await paysvc.webhooks.listDeliveries({ type: ["CUSTOMER.KYC_APPROVED"] });
    expect(deliveries.data.map((d) => d.eventId)).toEqual([raised[2]]);
  });

  test("another platform's event is a NotFoundError NOT_FOUND", async () => {
    const platform = await server.newPlatform();
    const eventId = await produce(server, platform.platformId);
    const other = new PaysvcClient({ baseUrl: server.baseUrl, ...server.platform });
    await expect(other.events.get(eventId)).rejects.toSatisfy(
      (error) => error instanceof NotFoundError && error.code === "NOT_FOUND",
    );
  });
});
