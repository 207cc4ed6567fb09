import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DELAYED_ACTIVATION_MS } from "../../src/cards/issue.js";
import type { Card } from "../../src/cards/schemas.js";
import { openCustomerAccounts } from "../../src/customers/open-accounts.js";
import { insertCustomer } from "../../src/customers/store.js";
import { currencySettings, startServer, type TestClient, type TestServer } from "../harness.js";
import {
  activeCard,
  type Cardholder,
  cardEvents,
  cardPlatform,
  eventsOf,
  issueCard,
  newCardholder,
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

const statusesOf = async (cardId: string) =>
  (await cardEvents(server, platformId, cardId)).map(
    (e) => `${e.type} ${e.data.status} ${e.data.statusReason}`,
  );
const getCard = async (c: TestClient, id: string) => (await c.get<Card>(`/cards/${id}`)).body;

/**
 * A cardholder whose id ends in `suffix`. paysvc never generates such an id (conventions §1.3), so the
 * cardholderId suffix rule can only be reached by writing the customer through the store.
 */
async function cardholderWithIdSuffix(suffix: string): Promise<Cardholder> {
  const customerId = `Customer:0190d2a1-7c4e-7b3a-9f00-${Date.now().toString().slice(-9)}${suffix}`;
  const now = new Date();
  await server.db.transaction(async (tx) => {
    await insertCustomer(tx, {
      id: customerId,
      platform_id: platformId,
      platform_customer_id: null,
      customer_type: "INDIVIDUAL",
      kyc_status: "APPROVED",
      uma_address: `$holder${suffix}${Date.now()}@paysvc.test`,
      is_deleted: false,
      profile: { fullName: "Suffix Holder" },
      created_at: now,
      updated_at: now,
    });
    await openCustomerAccounts(tx, {
      platformId,
      customerId,
      supportedCurrencies: ["USD"],
      hasEmail: false,
      now,
    });
  });
  const accounts = await client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${customerId}&currency=USD`,
  );
  return { customerId, accountId: accounts.body.data[0]?.id ?? "" };
}

describe("sandbox issuer suffixes (conventions §6.5)", () => {
  test("platformCardId suffix 001 stays PROCESSING, with no event", async () => {
    const card = await issueCard(client, await newCardholder(client), { platformCardId: "stay-001" });
    await server.jobs.runDue();
    expect((await getCard(client, card.id)).status).toBe("PROCESSING");
    expect(await statusesOf(card.id)).toEqual([]);
  });

  test("platformCardId suffix 002 -> CLOSED with ISSUER_REJECTED and one CARD.STATUS_CHANGE", async () => {
    const card = await issueCard(client, await newCardholder(client), { platformCardId: "reject-002" });
    await server.jobs.runDue();
    const after = await getCard(client, card.id);
    expect(after).toMatchObject({ status: "CLOSED", statusReason: "ISSUER_REJECTED" });
    const events = await cardEvents(server, platformId, card.id);
    expect(events).toEqual([{ type: "CARD.STATUS_CHANGE", data: after }]);
  });

  test("platformCardId suffix 005 stays PROCESSING until 30 s of the platform clock have passed, then ACTIVE", async () => {
    const { client: own, platform } = await cardPlatform(server);
    const card = await issueCard(own, await newCardholder(own), { platformCardId: "late-005" });
    await server.jobs.runDue();
    expect((await getCard(own, card.id)).status).toBe("PROCESSING");
    const to = new Date(Date.parse(card.createdAt) + DELAYED_ACTIVATION_MS + 1_000).toISOString();
    expect((await own.post("/sandbox/clock/advance", { to })).status).toBe(200);
    await server.jobs.runDue();
    const after = await getCard(own, card.id);
    expect(after.status).toBe("ACTIVE");
    expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(card.createdAt) + DELAYED_ACTIVATION_MS,
    );
    const events = await cardEvents(server, platform.platformId, card.id);
    expect(events).toEqual([{ type: "CARD.STATUS_CHANGE", data: after }]);
  });

  test("without platformCardId the suffix is read from cardholderId (…002 -> ISSUER_REJECTED)", async () => {
    const holder = await cardholderWithIdSuffix("002");
    const card = await issueCard(client, holder);
    await server.jobs.runDue();
    expect(await getCard(client, card.id)).toMatchObject({
      status: "CLOSED",
      statusReason: "ISSUER_REJECTED",
    });
  });

  test("a platformCardId takes precedence over the cardholderId suffix", async () => {
    const holder = await cardholderWithIdSuffix("001");
    const card = await issueCard(client, holder, { platformCardId: `mine-${Date.now()}-457` });
    await server.jobs.runDue();
    expect((await getCard(client, card.id)).status).toBe("ACTIVE");
  });

  test("without platformCardId, platformCardId is the card's uuid", async () => {
    const card = await issueCard(client, await newCardholder(client));
    expect(card.platformCardId).toBe(card.id.slice("Card:".length));
  });
});

describe("POST /cards checks", () => {
  test.each([
    { suffix: "001", kycStatus: "UNVERIFIED" },
    { suffix: "002", kycStatus: "REJECTED" },
  ])(
    "a cardholder whose KYC is $kycStatus -> 400 CARDHOLDER_KYC_NOT_APPROVED",
    async ({ suffix, kycStatus }) => {
      const holder = await newCardholder(client, `Not Approved ${suffix}`);
      expect((await client.get(`/customers/${holder.customerId}`)).body.kycStatus).toBe(kycStatus);
      const res = await client.post("/cards", {
        cardholderId: holder.customerId,
        form: "VIRTUAL",
        fundingSources: [holder.accountId],
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "CARDHOLDER_KYC_NOT_APPROVED" });
    },
  );

  const ineligible = async (c: TestClient, holder: Cardholder, fundingSources: string[], field: string) => {
    const res = await c.post("/cards", { cardholderId: holder.customerId, form: "VIRTUAL", fundingSources });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({
      code: "FUNDING_SOURCE_INELIGIBLE",
      details: { errors: [{ field, message: expect.any(String) }] },
    });
  };

  test("another customer's account -> 400 FUNDING_SOURCE_INELIGIBLE naming fundingSources[0]", async () => {
    const holder = await newCardholder(client);
    const stranger = await newCardholder(client);
    await ineligible(client, holder, [stranger.accountId], "fundingSources[0]");
  });

  test("the cardholder's USDB embedded wallet -> 400 FUNDING_SOURCE_INELIGIBLE", async () => {
    const { client: own } = await cardPlatform(server);
    expect(
      (await own.patch("/config", { supportedCurrencies: currencySettings("USD", "USDB") })).status,
    ).toBe(200);
    const customer = await own.post<{ id: string }>("/customers", {
      customerType: "INDIVIDUAL",
      fullName: "Wallet Holder",
      email: "wallet.holder@example.com",
    });
    const accounts = await own.get<{ data: { id: string; type: string }[] }>(
      `/customers/internal-accounts?customerId=${customer.body.id}`,
    );
    const wallet = accounts.body.data.find((a) => a.type === "EMBEDDED_WALLET")?.id ?? "";
    const usd = accounts.body.data.find((a) => a.type === "INTERNAL_FIAT")?.id ?? "";
    await ineligible(own, { customerId: customer.body.id, accountId: usd }, [wallet], "fundingSources[0]");
  });

  test("sources in two currencies -> 400 FUNDING_SOURCE_INELIGIBLE on the one not in the first's currency", async () => {
    const { client: own } = await cardPlatform(server);
    expect((await own.patch("/config", { supportedCurrencies: currencySettings("USD", "EUR") })).status).toBe(
      200,
    );
    const holder = await newCardholder(own);
    const eur = await own.get<{ data: { id: string }[] }>(
      `/customers/internal-accounts?customerId=${holder.customerId}&currency=EUR&type=INTERNAL_FIAT`,
    );
    await ineligible(own, holder, [holder.accountId, eur.body.data[0]?.id ?? ""], "fundingSources[1]");
  });

  test("a rule-based account of the cardholder -> 400 FUNDING_SOURCE_INELIGIBLE", async () => {
    const holder = await newCardholder(client);
    const ruleBased = await client.post<{ id: string }>(
      `/sandbox/customers/${holder.customerId}/rule-based-accounts`,
      { currency: "USD" },
    );
    expect(ruleBased.status).toBe(201);
    await ineligible(client, holder, [ruleBased.body.id], "fundingSources[0]");
  });

  test.each([
    ["unknown", "InternalAccount:0190d2a1-7c4e-7b3a-9f00-1234567890ab"],
    ["malformed", "InternalAccount:nope"],
  ])("an %s funding account -> 404 ACCOUNT_NOT_FOUND", async (_, accountId) => {
    const holder = await newCardholder(client);
    const res = await client.post("/cards", {
      cardholderId: holder.customerId,
      form: "VIRTUAL",
      fundingSources: [accountId],
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
  });

  test("an unknown cardholder -> 404 CUSTOMER_NOT_FOUND", async () => {
    const holder = await newCardholder(client);
    const res = await client.post("/cards", {
      cardholderId: "Customer:0190d2a1-7c4e-7b3a-9f00-1234567890ab",
      form: "VIRTUAL",
      fundingSources: [holder.accountId],
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "CUSTOMER_NOT_FOUND" });
  });

  test.each([
    { name: "missing form", change: { form: undefined }, field: "form" },
    { name: "form PHYSICAL", change: { form: "PHYSICAL" }, field: "form" },
    { name: "empty fundingSources", change: { fundingSources: [] }, field: "fundingSources" },
    { name: "duplicate fundingSources", change: { fundingSources: "twice" }, field: "fundingSources" },
    {
      name: "maxSpendPerTransaction 0",
      change: { maxSpendPerTransaction: 0 },
      field: "maxSpendPerTransaction",
    },
    { name: "an unknown field", change: { pin: "1234" }, field: "pin" },
  ])("$name -> 400 INVALID_INPUT on $field", async ({ change, field }) => {
    const holder = await newCardholder(client);
    const fundingSources =
      change.fundingSources === "twice" ? [holder.accountId, holder.accountId] : change.fundingSources;
    const res = await client.post("/cards", {
      cardholderId: holder.customerId,
      form: "VIRTUAL",
      fundingSources: [holder.accountId],
      ...change,
      ...(fundingSources !== undefined ? { fundingSources } : {}),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "INVALID_INPUT",
      details: { errors: [expect.objectContaining({ field })] },
    });
  });

  test("a duplicate platformCardId on the platform -> 409 CONFLICT", async () => {
    const holder = await newCardholder(client);
    const platformCardId = `dup-${Date.now()}-457`;
    await issueCard(client, holder, { platformCardId });
    const res = await client.post("/cards", {
      cardholderId: holder.customerId,
      form: "VIRTUAL",
      fundingSources: [holder.accountId],
      platformCardId,
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CONFLICT" });
  });

  test("threeDSecurePassword is neither stored nor returned", async () => {
    const secret = "3ds-Secret-Passphrase-9f1c";
    const card = await issueCard(client, await newCardholder(client), { threeDSecurePassword: secret });
    expect(JSON.stringify(card)).not.toContain(secret);
    expect(JSON.stringify(await getCard(client, card.id))).not.toContain(secret);
    const rows = await server.db.query("SELECT * FROM cards WHERE id = $1", [card.id]);
    expect(rows.length).toBe(1);
    expect(JSON.stringify(rows)).not.toContain(secret);
    await server.jobs.runDue();
    const events = await server.db.query<{ body: string }>(
      "SELECT body FROM webhook_events WHERE body LIKE $1",
      [`%${card.id}%`],
    );
    for (const { body } of events) expect(body).not.toContain(secret);
  });

  test("a production platform with an APPROVED cardholder -> 501 NOT_IMPLEMENTED (no card issuer), after the other checks", async () => {
    const production = client.as(await server.newPlatform("PRODUCTION"));
    const holder = await newCardholder(production);
    const body = { cardholderId: holder.customerId, form: "VIRTUAL", fundingSources: [holder.accountId] };
    // An unapproved cardholder is still refused first (400 before 501).
    expect((await production.post("/cards", body)).body).toMatchObject({
      code: "CARDHOLDER_KYC_NOT_APPROVED",
    });
    // Production KYC ends in manual review (PENDING_MANUAL_REVIEW), which nothing in paysvc approves yet,
    // so the approval a reviewer would record is written directly.
    await server.db.query("UPDATE customers SET kyc_status = 'APPROVED' WHERE id = $1", [holder.customerId]);
    const res = await production.post("/cards", body);
    expect(res.status).toBe(501);
    expect(res.body).toMatchObject({ code: "NOT_IMPLEMENTED" });
    expect((await production.get<{ totalCount: number }>("/cards")).body.totalCount).toBe(0);
  });
});

describe("GET /cards", () => {
  let own: TestClient;
  let holderA: Cardholder;
  let holderB: Cardholder;
  let cards: Card[];
  beforeAll(async () => {
    own = (await cardPlatform(server)).client;
    holderA = await newCardholder(own);
    holderB = await newCardholder(own);
    cards = [
      await issueCard(own, holderA, { platformCardId: "list-a1" }),
      await issueCard(own, holderA, { platformCardId: "list-a2-001" }),
      await issueCard(own, holderB, { platformCardId: "list-b1" }),
    ];
    await server.jobs.runDue();
    expect((await own.patch(`/cards/${cards[0]?.id}`, { status: "FROZEN" })).status).toBe(200);
  });

  const ids = async (query: string) =>
    (await own.get<{ data: Card[] }>(`/cards${query}`)).body.data.map((c) => c.platformCardId).sort();

  test.each([
    { filter: "cardholderId=A", expected: ["list-a1", "list-a2-001"] },
    { filter: "cardholderId=B", expected: ["list-b1"] },
    { filter: "accountId=B", expected: ["list-b1"] },
    { filter: "accountId=", expected: [] },
    { filter: "cardholderId=", expected: [] },
    { filter: "platformCardId=list-a2-001", expected: ["list-a2-001"] },
    { filter: "status=FROZEN", expected: ["list-a1"] },
    { filter: "status=PROCESSING", expected: ["list-a2-001"] },
    { filter: "status=ACTIVE", expected: ["list-b1"] },
    { filter: "cardholderId=A&status=PROCESSING", expected: ["list-a2-001"] },
  ])("filter $filter", async ({ filter, expected }) => {
    const query = filter
      .replace("cardholderId=A", `cardholderId=${holderA.customerId}`)
      .replace("cardholderId=B", `cardholderId=${holderB.customerId}`)
      .replace("accountId=B", `accountId=${holderB.accountId}`);
    expect(await ids(`?${query}`)).toEqual(expected);
  });

  test("pages of limit 2 newest first: hasMore, nextCursor and totalCount, then the rest", async () => {
    const first = await own.get<{ data: Card[]; hasMore: boolean; nextCursor?: string; totalCount: number }>(
      "/cards?limit=2",
    );
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(first.body.data.map((c) => c.id)).toEqual([cards[2]?.id, cards[1]?.id]);
    const rest = await own.get<{ data: Card[]; hasMore: boolean; nextCursor?: string }>(
      `/cards?limit=2&cursor=${encodeURIComponent(first.body.nextCursor ?? "")}`,
    );
    expect(rest.body.data.map((c) => c.id)).toEqual([cards[0]?.id]);
    expect(rest.body.hasMore).toBe(false);
    expect(rest.body.nextCursor).toBeUndefined();
    const asc = await own.get<{ data: Card[] }>("/cards?sortOrder=asc");
    expect(asc.body.data.map((c) => c.id)).toEqual(cards.map((c) => c.id));
  });

  test.each(["limit=0", "limit=101", "status=OPEN", "cursor=garbage", "color=red"])(
    "?%s -> 400 INVALID_INPUT",
    async (query) => {
      const res = await own.get(`/cards?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "INVALID_INPUT" });
    },
  );

  test("another platform sees none of these cards: its list is empty and GET by id is 404 NOT_FOUND", async () => {
    const other = client.as(await server.newPlatform());
    expect((await other.get<{ totalCount: number }>("/cards")).body.totalCount).toBe(0);
    expect(
      (await other.get<{ data: Card[] }>(`/cards?cardholderId=${holderA.customerId}`)).body.data,
    ).toEqual([]);
    const res = await other.get(`/cards/${cards[0]?.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "NOT_FOUND" });
  });

  test.each([
    "Card:nonsense",
    "Card:0190d2a1-7c4e-7b3a-9f00-1234567890ab",
    "Customer:0190d2a1-7c4e-7b3a-9f00-1234567890ab",
  ])("GET /cards/%s -> 404 NOT_FOUND", async (id) => {
    const res = await own.get(`/cards/${id}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "NOT_FOUND" });
  });

  test("GET /cards/{id} with ':' percent-encoded reads the same card", async () => {
    const card = cards[2] as Card;
    expect((await own.get(`/cards/${card.id.replace(":", "%3A")}`)).body).toEqual(
      await getCard(own, card.id),
    );
  });
});
