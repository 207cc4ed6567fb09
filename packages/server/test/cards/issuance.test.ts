import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Card } from "../../src/cards/schemas.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { activeCard, cardPlatform, eventsOf, issueCard, newCardholder } from "./helpers.js";

let server: TestServer;
let client: TestClient;
let platformId: string;
beforeAll(async () => {
  server = await startServer();
  const setup = await cardPlatform(server);
  client = setup.client;
  platformId = setup.platform.platformId;
});
afterAll(() => server.close());

describe("POST /cards", () => {
  test("POST /cards answers 201 with a VIRTUAL card in PROCESSING, pinStatus NOT_SET", async () => {
    const holder = await newCardholder(client);
    const card = await issueCard(client, holder, { platformCardId: "card-457" });
    expect(card).toMatchObject({
      cardholderId: holder.customerId,
      platformCardId: "card-457",
      status: "PROCESSING",
      statusReason: null,
      pinStatus: "NOT_SET",
      form: "VIRTUAL",
      brand: "VISA",
      fundingSources: [holder.accountId],
      maxSpendPerTransaction: null,
      currency: "USD",
      cardCapabilities: { supportsDigitalWalletTokenization: true },
    });
    expect(card.id).toMatch(/^Card:[0-9a-f-]{36}$/);
    expect(card.last4).toMatch(/^\d{4}$/);
  });

  test("card issuance: any other suffix -> ACTIVE with one CARD.STATUS_CHANGE", async () => {
    const holder = await newCardholder(client);
    const card = await activeCard(server, client, holder);
    const events = (await eventsOf(server, platformId, "CARD.")).filter((e) => e.data.id === card.id);
    expect(events.map((e) => `${e.type} ${(e.data as Card).status}`)).toEqual(["CARD.STATUS_CHANGE ACTIVE"]);
  });
});
