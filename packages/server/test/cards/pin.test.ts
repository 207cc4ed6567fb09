import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAX_PIN_ATTEMPTS, pinMatches } from "../../src/cards/pin.js";
import type { Card } from "../../src/cards/schemas.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { activeCard, cardEvents, cardPlatform, issueCard, newCardholder } from "./helpers.js";

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

interface AttemptResult {
  correct: boolean;
  pinStatus: string;
  remainingAttempts: number;
}

const setPin = (cardId: string, pin: unknown, headers: Record<string, string> = {}) =>
  client.post<Card>(`/cards/${cardId}/pin`, { pin }, { headers });
const attempt = (cardId: string, pin: string) =>
  client.post<AttemptResult>(`/sandbox/cards/${cardId}/simulate/pin_attempt`, { pin });

async function newActiveCard(): Promise<Card> {
  return activeCard(server, client, await newCardholder(client));
}

const pinEvents = async (cardId: string) =>
  (await cardEvents(server, platformId, cardId))
    .filter((e) => e.type === "CARD.PIN_STATUS_CHANGE")
    .map((e) => e.data.pinStatus);

async function pinColumns(cardId: string) {
  const [row] = await server.db.query<{ pin_hash: string | null; pin_failed_attempts: number }>(
    "SELECT pin_hash, pin_failed_attempts FROM cards WHERE id = $1",
    [cardId],
  );
  return row;
}

describe("POST /cards/{id}/pin", () => {
  test("a card is created NOT_SET with no PIN event; setting a PIN -> 200 Card, OK, one CARD.PIN_STATUS_CHANGE", async () => {
    const card = await newActiveCard();
    expect(card.pinStatus).toBe("NOT_SET");
    expect(await pinEvents(card.id)).toEqual([]);
    const res = await setPin(card.id, "4821");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: card.id, pinStatus: "OK", status: "ACTIVE" });
    const events = (await cardEvents(server, platformId, card.id)).filter(
      (e) => e.type === "CARD.PIN_STATUS_CHANGE",
    );
    expect(events).toEqual([{ type: "CARD.PIN_STATUS_CHANGE", data: res.body }]);
  });

  test("replacing an OK PIN stays OK and fires no CARD.PIN_STATUS_CHANGE; the new PIN is the one that works", async () => {
    const card = await newActiveCard();
    await setPin(card.id, "1111");
    const res = await setPin(card.id, "222222");
    expect(res.status).toBe(200);
    expect(res.body.pinStatus).toBe("OK");
    expect(await pinEvents(card.id)).toEqual(["OK"]);
    expect((await attempt(card.id, "1111")).body.correct).toBe(false);
    expect((await attempt(card.id, "222222")).body.correct).toBe(true);
  });

  test("setting a PIN on a BLOCKED card -> OK with the wrong-attempt count reset, and fires the change", async () => {
    const card = await newActiveCard();
    await setPin(card.id, "1234");
    for (let i = 0; i < MAX_PIN_ATTEMPTS; i++) await attempt(card.id, "9999");
    expect((await client.get<Card>(`/cards/${card.id}`)).body.pinStatus).toBe("BLOCKED");
    const res = await setPin(card.id, "5678");
    expect(res.body.pinStatus).toBe("OK");
    expect(await pinEvents(card.id)).toEqual(["OK", "BLOCKED", "OK"]);
    expect((await pinColumns(card.id))?.pin_failed_attempts).toBe(0);
    expect((await attempt(card.id, "0000")).body.remainingAttempts).toBe(MAX_PIN_ATTEMPTS - 1);
  });

  test("a PIN may be set on a PROCESSING or FROZEN card", async () => {
    const holder = await newCardholder(client);
    const processing = await issueCard(client, holder, { platformCardId: `pin-${Date.now()}-001` });
    expect((await setPin(processing.id, "1234")).body).toMatchObject({
      status: "PROCESSING",
      pinStatus: "OK",
    });
    const frozen = await newActiveCard();
    expect((await client.patch(`/cards/${frozen.id}`, { status: "FROZEN" })).status).toBe(200);
    expect((await setPin(frozen.id, "1234")).body).toMatchObject({ status: "FROZEN", pinStatus: "OK" });
  });

  test("a CLOSED card's PIN cannot be set: 409 CARD_NOT_MUTABLE", async () => {
    const card = await newActiveCard();
    expect((await client.patch(`/cards/${card.id}`, { status: "CLOSED" })).status).toBe(200);
    const res = await setPin(card.id, "1234");
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CARD_NOT_MUTABLE" });
  });

  test.each([
    { body: { pin: "123" } },
    { body: { pin: "1234567" } },
    { body: { pin: "12a4" } },
    { body: { pin: " 1234" } },
    { body: { pin: 1234 } },
    { body: {} },
    { body: { pin: "1234", pinBlock: "x" } },
  ])("body $body is 400 INVALID_INPUT (a PIN is a string of 4-6 digits)", async ({ body }) => {
    const card = await newActiveCard();
    const res = await client.post(`/cards/${card.id}/pin`, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT" });
    expect(res.text).not.toContain("1234");
  });

  test("unknown card -> 404 NOT_FOUND", async () => {
    const res = await setPin("Card:0190d2a1-7c4e-7b3a-9f00-1234567890ab", "1234");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("the PIN is never stored in clear nor returned", () => {
  test("the PIN is in no response, no event body and no database column; pin_hash is a salted scrypt hash", async () => {
    const pin = "739146";
    const card = await newActiveCard();
    const bodies: string[] = [];
    const set = await setPin(card.id, pin, { "idempotency-key": `pin-${card.id}` });
    bodies.push(set.text);
    bodies.push((await attempt(card.id, "000000")).text, (await attempt(card.id, pin)).text);
    bodies.push((await client.get(`/cards/${card.id}`)).text, (await client.get("/cards")).text);
    for (const body of bodies) expect(body).not.toContain(pin);

    const events = await server.db.query<{ body: string }>(
      "SELECT body FROM webhook_events WHERE platform_id = $1",
      [platformId],
    );
    expect(events.some((e) => e.body.includes(card.id))).toBe(true);
    for (const event of events) expect(event.body).not.toContain(pin);

    const tables = await server.db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    // Bounded by non-alphanumerics, as a stored value would be: random hex ids may contain any 6 digits.
    const asValue = new RegExp(`(^|[^0-9A-Za-z])${pin}([^0-9A-Za-z]|$)`);
    for (const { table_name } of tables) {
      const rows = await server.db.query(`SELECT * FROM "${table_name}"`);
      expect(JSON.stringify(rows), `table ${table_name}`).not.toMatch(asValue);
    }

    const stored = (await pinColumns(card.id))?.pin_hash ?? "";
    expect(stored).toMatch(/^scrypt\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/);
    expect(await pinMatches(pin, stored)).toBe(true);
    expect(await pinMatches("739147", stored)).toBe(false);
  });

  test("the same PIN on two cards gives two different hashes (salted)", async () => {
    const [a, b] = [await newActiveCard(), await newActiveCard()];
    await setPin(a.id, "2468");
    await setPin(b.id, "2468");
    expect((await pinColumns(a.id))?.pin_hash).not.toBe((await pinColumns(b.id))?.pin_hash);
  });
});

describe("sandbox pin_attempt", () => {
  test("a correct PIN -> {correct: true, OK, remainingAttempts 3}", async () => {
    const card = await newActiveCard();
    await setPin(card.id, "1357");
    const res = await attempt(card.id, "1357");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ correct: true, pinStatus: "OK", remainingAttempts: MAX_PIN_ATTEMPTS });
  });

  test("a correct PIN resets the wrong-attempt count, so only 3 wrong attempts in a row block", async () => {
    const card = await newActiveCard();
    await setPin(card.id, "1357");
    expect((await attempt(card.id, "0000")).body).toEqual({
      correct: false,
      pinStatus: "OK",
      remainingAttempts: 2,
    });
    expect((await attempt(card.id, "0000")).body).toEqual({
      correct: false,
      pinStatus: "OK",
      remainingAttempts: 1,
    });
    expect((await attempt(card.id, "1357")).body).toEqual({
      correct: true,
      pinStatus: "OK",
      remainingAttempts: 3,
    });
    expect((await attempt(card.id, "0000")).body.remainingAttempts).toBe(2);
    expect((await client.get<Card>(`/cards/${card.id}`)).body.pinStatus).toBe("OK");
  });

  test("the 3rd wrong attempt in a row -> BLOCKED with exactly one CARD.PIN_STATUS_CHANGE", async () => {
    const card = await newActiveCard();
    await setPin(card.id, "1357");
    await attempt(card.id, "0000");
    await attempt(card.id, "0001");
    const third = await attempt(card.id, "0002");
    expect(third.body).toEqual({ correct: false, pinStatus: "BLOCKED", remainingAttempts: 0 });
    const card2 = (await client.get<Card>(`/cards/${card.id}`)).body;
    expect(card2.pinStatus).toBe("BLOCKED");
    const events = (await cardEvents(server, platformId, card.id)).filter(
      (e) => e.type === "CARD.PIN_STATUS_CHANGE",
    );
    expect(events.map((e) => e.data.pinStatus)).toEqual(["OK", "BLOCKED"]);
    expect(events[1]?.data).toEqual(card2);
  });

  test("wrong attempts that do not block leave updatedAt and the events alone", async () => {
    const card = await newActiveCard();
    const set = await setPin(card.id, "1357");
    await attempt(card.id, "0000");
    expect((await client.get<Card>(`/cards/${card.id}`)).body.updatedAt).toBe(set.body.updatedAt);
    expect(await pinEvents(card.id)).toEqual(["OK"]);
  });

  test.each([
    { state: "NOT_SET", prepare: async (_: Card) => {} },
    {
      state: "BLOCKED",
      prepare: async (card: Card) => {
        await setPin(card.id, "1357");
        for (let i = 0; i < MAX_PIN_ATTEMPTS; i++) await attempt(card.id, "0000");
      },
    },
  ])("an attempt on a $state PIN is 409 CONFLICT and changes nothing", async ({ prepare }) => {
    const card = await newActiveCard();
    await prepare(card);
    const before = await client.get<Card>(`/cards/${card.id}`);
    const res = await attempt(card.id, "1357");
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CONFLICT" });
    expect((await client.get(`/cards/${card.id}`)).body).toEqual(before.body);
  });

  test("concurrent wrong attempts are all counted: 3 at once block the PIN", async () => {
    const card = await newActiveCard();
    await setPin(card.id, "1357");
    const wrong = await Promise.all(["0000", "0001", "0002"].map((pin) => attempt(card.id, pin)));
    expect(wrong.map((r) => r.body.remainingAttempts).sort()).toEqual([0, 1, 2]);
    expect((await client.get<Card>(`/cards/${card.id}`)).body.pinStatus).toBe("BLOCKED");
    expect(await pinEvents(card.id)).toEqual(["OK", "BLOCKED"]);
  });

  test("a production platform calling the simulation is 403 FORBIDDEN", async () => {
    const production = client.as(await server.newPlatform("PRODUCTION"));
    const res = await production.post(
      "/sandbox/cards/Card:0190d2a1-7c4e-7b3a-9f00-1234567890ab/simulate/pin_attempt",
      { pin: "1234" },
    );
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "FORBIDDEN" });
  });

  test("unknown card -> 404 NOT_FOUND", async () => {
    const res = await attempt("Card:0190d2a1-7c4e-7b3a-9f00-1234567890ab", "1234");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "NOT_FOUND" });
  });
});
