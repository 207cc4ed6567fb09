import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { activeCard, cardPlatform, fund as fundCardholder, newCardholder } from "../cards/helpers.js";
import { authorize } from "../cards/transaction-helpers.js";
import { startServer, type TestServer } from "../harness.js";
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
