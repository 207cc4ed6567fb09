import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { activeCard, cardPlatform, fund as fundCardholder, newCardholder } from "../cards/helpers.js";
import { authorize } from "../cards/transaction-helpers.js";
import { newUsdAccount, startServer, type TestClient, type TestServer } from "../harness.js";
import { fund, newAccount, transfer } from "./helpers.js";

type Row = {
  id: string;
  type: string;
  source?: { accountId?: string };
  destination?: { accountId?: string };
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const list = async (query: string) => {
  const res = await server.client.get<{ data: Row[] }>(`/transactions?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
};

describe("GET /transactions senderAccountIdentifier and receiverAccountIdentifier (conventions §3.4)", () => {
  test("senderAccountIdentifier selects the transfers sent from that account: both sides' rows, no others", async () => {
    const [a, b, c] = [await newAccount(server), await newAccount(server), await newAccount(server)];
    await fund(server, a, 10_000);
    await fund(server, b, 10_000);
    expect(
      (await server.client.post("/quotes", transfer(a, b, 100, { immediatelyExecute: true }))).status,
    ).toBe(201);
    expect(
      (await server.client.post("/quotes", transfer(b, c, 200, { immediatelyExecute: true }))).status,
    ).toBe(201);
    const sentByA = await list(`senderAccountIdentifier=${a}`);
    expect(sentByA.map((r) => r.type).sort()).toEqual(["INCOMING", "OUTGOING"]);
    expect(sentByA.every((r) => r.source?.accountId === a && r.destination?.accountId === b)).toBe(true);
    expect(await list(`senderAccountIdentifier=${a}&type=OUTGOING`)).toHaveLength(1);
  });

  test("receiverAccountIdentifier selects the transfers received by that account, deposits included", async () => {
    const [a, b] = [await newAccount(server), await newAccount(server)];
    await fund(server, a, 10_000);
    expect(
      (await server.client.post("/quotes", transfer(a, b, 100, { immediatelyExecute: true }))).status,
    ).toBe(201);
    const receivedByB = await list(`receiverAccountIdentifier=${b}`);
    expect(receivedByB.map((r) => r.type).sort()).toEqual(["INCOMING", "OUTGOING"]);
    const receivedByA = await list(`receiverAccountIdentifier=${a}`);
    expect(receivedByA.map((r) => r.type)).toEqual(["INCOMING"]);
    expect(await list(`receiverAccountIdentifier=${a}&senderAccountIdentifier=${b}`)).toEqual([]);
  });

  test("a card purchase is sent by the card's account; an unknown account matches nothing", async () => {
    const { client } = await cardPlatform(server);
    const holder = await newCardholder(client, "Filter Holder 457");
    await fundCardholder(client, holder.accountId, 10_000);
    const card = await activeCard(server, client, holder);
    const cardTransactionId = await authorize(client, card.id, 1_000);
    const sent = await client.get<{ data: Row[] }>(
      `/transactions?senderAccountIdentifier=${holder.accountId}&type=CARD`,
    );
    expect(sent.body.data.map((r) => r.id)).toEqual([cardTransactionId]);
    const received = await client.get<{ data: Row[] }>(
      `/transactions?receiverAccountIdentifier=${holder.accountId}&type=CARD`,
    );
    expect(received.body.data).toEqual([]);
    expect(
      await list("senderAccountIdentifier=InternalAccount:00000000-0000-4000-8000-000000000000"),
    ).toEqual([]);
  });
});

describe("GET /transactions startDate and endDate (date-times with an offset, or UTC dates)", () => {
  const FIRST = "2027-05-10T10:00:00.000Z";
  const SECOND = "2027-05-11T10:00:00.000Z";
  let client: TestClient;
  let account: string;
  let ids: string[];
  let times: number[];

  beforeAll(async () => {
    client = server.client.as(await server.newPlatform());
    account = await newUsdAccount(client);
    for (const to of [FIRST, SECOND]) {
      expect((await client.post("/sandbox/clock/advance", { to })).status).toBe(200);
      expect((await client.post(`/sandbox/internal-accounts/${account}/fund`, { amount: 100 })).status).toBe(
        200,
      );
    }
    const all = await client.get<{ data: (Row & { createdAt: string })[] }>(
      `/transactions?accountIdentifier=${account}&sortOrder=asc`,
    );
    ids = all.body.data.map((r) => r.id);
    times = all.body.data.map((r) => Date.parse(r.createdAt));
    expect(ids).toHaveLength(2);
  });

  const between = async (query: string) => {
    const res = await client.get<{ data: Row[] }>(
      `/transactions?accountIdentifier=${account}&sortOrder=asc&${query}`,
    );
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((r) => r.id);
  };
  /** The instant `ms` written with an offset of `hours` (RFC 3339), URL-encoded. */
  const at = (ms: number, hours: number) => {
    const local = new Date(ms + hours * 3_600_000).toISOString().slice(0, -1);
    const sign = hours < 0 ? "-" : "+";
    return encodeURIComponent(`${local}${sign}${String(Math.abs(hours)).padStart(2, "0")}:00`);
  };

  test("a date-time with an offset is that instant, inclusive at both ends", async () => {
    const [first = 0, second = 0] = times;
    expect(await between(`startDate=${at(first, 2)}`)).toEqual(ids);
    expect(await between(`startDate=${at(first + 1, 2)}`)).toEqual([ids[1]]);
    expect(await between(`endDate=${at(second, -5)}`)).toEqual(ids);
    expect(await between(`endDate=${at(second - 1, -5)}`)).toEqual([ids[0]]);
    expect(await between(`startDate=${at(first + 1, 0)}&endDate=${at(second - 1, 0)}`)).toEqual([]);
  });

  test("a plain date is a whole UTC day, inclusive", async () => {
    expect(await between("startDate=2027-05-11")).toEqual([ids[1]]);
    expect(await between("endDate=2027-05-10")).toEqual([ids[0]]);
    expect(await between("startDate=2027-05-10&endDate=2027-05-10")).toEqual([ids[0]]);
  });

  test("a value that is neither a date nor a date-time with an offset -> 400 INVALID_INPUT on the parameter", async () => {
    for (const value of ["2027-13-01", "2027-05-10T10:00:00", "yesterday"]) {
      const res = await client.get<{ code: string; details?: { errors: { field: string }[] } }>(
        `/transactions?startDate=${encodeURIComponent(value)}`,
      );
      expect(res.status, value).toBe(400);
      expect(res.body.code).toBe("INVALID_INPUT");
      expect(res.body.details?.errors.map((e) => e.field)).toEqual(["startDate"]);
    }
  });
});
