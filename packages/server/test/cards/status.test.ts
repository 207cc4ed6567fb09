import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Card, CardStatus } from "../../src/cards/schemas.js";
import { currencySettings, startServer, type TestClient, type TestServer } from "../harness.js";
import {
  activeCard,
  cardEvents,
  cardPlatform,
  issueCard,
  newCardholder,
  secondUsdAccount,
} from "./helpers.js";

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

const patch = (cardId: string, body: unknown) => client.patch<Card>(`/cards/${cardId}`, body);

/** A fresh card in the given status: PROCESSING via issuance suffix 001, the others through PATCH. */
async function cardIn(status: CardStatus): Promise<Card> {
  const holder = await newCardholder(client);
  if (status === "PROCESSING")
    return issueCard(client, holder, { platformCardId: `pending-${Date.now()}-001` });
  const card = await activeCard(server, client, holder);
  if (status === "ACTIVE") return card;
  const res = await patch(card.id, { status });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const typesOf = async (cardId: string) =>
  (await cardEvents(server, platformId, cardId)).map((e) => `${e.type} ${e.data.status}`);

describe("status transitions of the interface's card table", () => {
  test.each([
    { from: "ACTIVE", to: "FROZEN", statusReason: null },
    { from: "FROZEN", to: "ACTIVE", statusReason: null },
    { from: "ACTIVE", to: "CLOSED", statusReason: "CLOSED_BY_PLATFORM" },
    { from: "FROZEN", to: "CLOSED", statusReason: "CLOSED_BY_PLATFORM" },
  ] as const)(
    "$from -> $to: 200, statusReason $statusReason, exactly one CARD.STATUS_CHANGE with the post-change card",
    async ({ from, to, statusReason }) => {
      const card = await cardIn(from);
      const before = await typesOf(card.id);
      const res = await patch(card.id, { status: to });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: card.id, status: to, statusReason });
      expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(card.updatedAt));
      expect((await client.get(`/cards/${card.id}`)).body).toEqual(res.body);
      const events = await cardEvents(server, platformId, card.id);
      expect(events.slice(before.length)).toEqual([{ type: "CARD.STATUS_CHANGE", data: res.body }]);
    },
  );

  test.each([
    { from: "ACTIVE", to: "ACTIVE" },
    { from: "FROZEN", to: "FROZEN" },
    { from: "PROCESSING", to: "ACTIVE" },
    { from: "PROCESSING", to: "FROZEN" },
    { from: "PROCESSING", to: "CLOSED" },
  ] as const)(
    "$from -> $to is 409 INVALID_STATE_TRANSITION; card unchanged, no event",
    async ({ from, to }) => {
      const card = await cardIn(from);
      const before = await typesOf(card.id);
      const res = await patch(card.id, { status: to });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: "INVALID_STATE_TRANSITION" });
      expect((await client.get(`/cards/${card.id}`)).body).toEqual(card);
      expect(await typesOf(card.id)).toEqual(before);
    },
  );

  test("CLOSED -> CLOSED is 409 CARD_ALREADY_CLOSED", async () => {
    const card = await cardIn("CLOSED");
    const res = await patch(card.id, { status: "CLOSED" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CARD_ALREADY_CLOSED" });
  });

  test.each([
    { body: { status: "ACTIVE" } },
    { body: { status: "FROZEN" } },
    { body: { maxSpendPerTransaction: 500 } },
    { body: { maxSpendPerTransaction: null } },
    { body: { fundingSources: "holder's account" } },
  ])("any other change of a CLOSED card ($body) is 409 CARD_NOT_MUTABLE", async ({ body }) => {
    const holder = await newCardholder(client);
    const card = await activeCard(server, client, holder);
    expect((await patch(card.id, { status: "CLOSED" })).status).toBe(200);
    const request = "fundingSources" in body ? { fundingSources: [holder.accountId] } : body;
    const res = await patch(card.id, request);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CARD_NOT_MUTABLE" });
  });

  test("an issuer-rejected card (CLOSED, ISSUER_REJECTED) is not mutable either", async () => {
    const holder = await newCardholder(client);
    const card = await issueCard(client, holder, { platformCardId: `rejected-${Date.now()}-002` });
    await server.jobs.runDue();
    expect((await client.get<Card>(`/cards/${card.id}`)).body.status).toBe("CLOSED");
    expect((await patch(card.id, { status: "ACTIVE" })).body).toMatchObject({ code: "CARD_NOT_MUTABLE" });
    expect((await patch(card.id, { status: "CLOSED" })).body).toMatchObject({ code: "CARD_ALREADY_CLOSED" });
  });
});

describe("PATCH /cards/{id} input", () => {
  test.each([
    { body: { status: "CLOSED", maxSpendPerTransaction: 100 }, fields: ["maxSpendPerTransaction"] },
    { body: { status: "CLOSED", maxSpendPerTransaction: null }, fields: ["maxSpendPerTransaction"] },
    { body: { status: "CLOSED", fundingSources: ["x"] }, fields: ["fundingSources"] },
  ])(
    "status CLOSED with another field ($fields) is 400 INVALID_INPUT naming the other field",
    async ({ body, fields }) => {
      const card = await cardIn("ACTIVE");
      const res = await patch(card.id, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: "INVALID_INPUT",
        details: { errors: fields.map((field) => ({ field, message: expect.any(String) })) },
      });
      expect((await client.get<Card>(`/cards/${card.id}`)).body.status).toBe("ACTIVE");
    },
  );

  test("CLOSED with another field is 400 before the card is looked up (check order 400 -> 404)", async () => {
    const res = await patch("Card:0190d2a1-7c4e-7b3a-9f00-1234567890ab", {
      status: "CLOSED",
      maxSpendPerTransaction: 1,
    });
    expect(res.status).toBe(400);
  });

  test.each([
    { body: {}, field: "" },
    { body: { status: "PROCESSING" }, field: "status" },
    { body: { maxSpendPerTransaction: 0 }, field: "maxSpendPerTransaction" },
    { body: { maxSpendPerTransaction: 1.5 }, field: "maxSpendPerTransaction" },
    { body: { fundingSources: [] }, field: "fundingSources" },
    { body: { statusReason: "CLOSED_BY_PLATFORM" }, field: "statusReason" },
  ])("body $body is 400 INVALID_INPUT", async ({ body, field }) => {
    const card = await cardIn("ACTIVE");
    const res = await patch(card.id, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT" });
    if (field) {
      const fields = (res.body as unknown as { details: { errors: { field: string }[] } }).details.errors;
      expect(fields.map((e) => e.field)).toContain(field);
    }
  });

  test.each([
    ["unknown", "Card:0190d2a1-7c4e-7b3a-9f00-1234567890ab"],
    ["malformed", "Card:nonsense"],
  ])("%s card id is 404 NOT_FOUND", async (_, id) => {
    const res = await patch(id, { status: "FROZEN" });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "NOT_FOUND" });
  });

  test("another platform's card is 404 NOT_FOUND and stays unchanged", async () => {
    const card = await cardIn("ACTIVE");
    const other = client.as(await server.newPlatform());
    const res = await other.patch(`/cards/${card.id}`, { status: "FROZEN" });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "NOT_FOUND" });
    expect((await client.get<Card>(`/cards/${card.id}`)).body.status).toBe("ACTIVE");
  });
});

describe("funding sources and spend limit", () => {
  test("fundingSources is replaced in full and in order, firing one CARD.FUNDING_SOURCE_CHANGE", async () => {
    const holder = await newCardholder(client);
    const card = await activeCard(server, client, holder);
    const second = await secondUsdAccount(server, platformId, holder);
    const res = await patch(card.id, { fundingSources: [second, holder.accountId] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.fundingSources).toEqual([second, holder.accountId]);
    const events = await cardEvents(server, platformId, card.id);
    expect(events.map((e) => e.type)).toEqual(["CARD.STATUS_CHANGE", "CARD.FUNDING_SOURCE_CHANGE"]);
    expect(events[1]?.data).toEqual(res.body);
  });

  test("restating the current fundingSources changes nothing and fires nothing", async () => {
    const holder = await newCardholder(client);
    const card = await activeCard(server, client, holder);
    const res = await patch(card.id, { fundingSources: [holder.accountId] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(card);
    expect(await typesOf(card.id)).toEqual(["CARD.STATUS_CHANGE ACTIVE"]);
  });

  test("status and fundingSources together fire CARD.STATUS_CHANGE and CARD.FUNDING_SOURCE_CHANGE", async () => {
    const holder = await newCardholder(client);
    const card = await activeCard(server, client, holder);
    const second = await secondUsdAccount(server, platformId, holder);
    const res = await patch(card.id, { status: "FROZEN", fundingSources: [second] });
    expect(res.status, res.text).toBe(200);
    const events = await cardEvents(server, platformId, card.id);
    expect(events.slice(1)).toEqual([
      { type: "CARD.STATUS_CHANGE", data: res.body },
      { type: "CARD.FUNDING_SOURCE_CHANGE", data: res.body },
    ]);
  });

  test("fundingSources may change on a PROCESSING card (only its status is fixed)", async () => {
    const holder = await newCardholder(client);
    const card = await issueCard(client, holder, { platformCardId: `pending-${Date.now()}-001` });
    const second = await secondUsdAccount(server, platformId, holder);
    const res = await patch(card.id, { fundingSources: [second] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: "PROCESSING", fundingSources: [second] });
  });

  test("maxSpendPerTransaction is set, then cleared with null; a limit change fires no event", async () => {
    const card = await cardIn("ACTIVE");
    const set = await patch(card.id, { maxSpendPerTransaction: 2_500 });
    expect(set.status).toBe(200);
    expect(set.body.maxSpendPerTransaction).toBe(2_500);
    const cleared = await patch(card.id, { maxSpendPerTransaction: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.maxSpendPerTransaction).toBeNull();
    expect(await typesOf(card.id)).toEqual(["CARD.STATUS_CHANGE ACTIVE"]);
  });

  test("another customer's account as a funding source is 400 FUNDING_SOURCE_INELIGIBLE; card unchanged", async () => {
    const card = await cardIn("ACTIVE");
    const stranger = await newCardholder(client);
    const res = await patch(card.id, { fundingSources: [stranger.accountId] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "FUNDING_SOURCE_INELIGIBLE",
      details: { errors: [{ field: "fundingSources[0]", message: expect.any(String) }] },
    });
    expect((await client.get(`/cards/${card.id}`)).body).toEqual(card);
  });

  test("funding sources in another currency than the card's are 400 FUNDING_SOURCE_INELIGIBLE", async () => {
    const { client: multi } = await cardPlatform(server);
    expect(
      (await multi.patch("/config", { supportedCurrencies: currencySettings("USD", "EUR") })).status,
    ).toBe(200);
    const holder = await newCardholder(multi);
    const card = await issueCard(multi, holder);
    const eur = await multi.get<{ data: { id: string }[] }>(
      `/customers/internal-accounts?customerId=${holder.customerId}&currency=EUR&type=INTERNAL_FIAT`,
    );
    const eurAccount = eur.body.data[0]?.id;
    const res = await multi.patch(`/cards/${card.id}`, { fundingSources: [eurAccount] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "FUNDING_SOURCE_INELIGIBLE",
      details: {
        errors: [{ field: "fundingSources[0]", message: "is in EUR, not the card's currency USD" }],
      },
    });
  });

  test("an unknown funding account is 404 ACCOUNT_NOT_FOUND", async () => {
    const card = await cardIn("ACTIVE");
    const res = await patch(card.id, {
      fundingSources: ["InternalAccount:0190d2a1-7c4e-7b3a-9f00-1234567890ab"],
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
  });
});
