import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { CardTransaction } from "../../src/cards/schemas.js";
import { ControlledClock } from "../../src/core/clock.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { cardPlatform, eventsOf, fund } from "./helpers.js";
import {
  advance,
  authorize,
  cardTransaction,
  clear,
  type ErrorBody,
  fundedCard,
  SHOP,
  simulateOk,
} from "./transaction-helpers.js";

// Conventions §3.4 (GET /transactions with card rows), §7.4 (event data = the CARD row) and the
// interface's periodic statement rule 8 (declined authorizations never reach a statement).

/** The service clock stands still, so rows made without moving a platform clock share one createdAt. */
const START = "2026-03-02T15:00:00.000Z";
const LAG_MS = 60_000;

interface Row {
  id: string;
  type: string;
  status: string;
  createdAt: string;
  cardId?: string;
}
interface Page {
  data: Row[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ clock: new ControlledClock(new Date(START)), settlementLagMs: LAG_MS });
});
afterAll(() => server.close());

const list = (client: TestClient, query: string) => client.get<Page & ErrorBody>(`/transactions?${query}`);

/** A platform with a cardholder funded twice (2 INCOMING rows) and card rows of two cards. */
async function mixedPlatform() {
  const { platform, client } = await cardPlatform(server);
  const { holder, cardId } = await fundedCard(server, client, 10_000);
  await fund(client, holder.accountId, 5_000);
  const settled = await authorize(client, cardId, 1_000);
  await clear(client, cardId, settled, 1_000);
  const declined = await authorize(client, cardId, 1, { ...SHOP, descriptor: "NOPE 007" });
  const other = await fundedCard(server, client, 3_000);
  const otherRow = await authorize(client, other.cardId, 500);
  return { platform, client, holder, cardId, settled, declined, other, otherRow };
}

describe("GET /transactions with card rows (conventions §3.4)", () => {
  test("card rows (type CARD) are listed beside payment rows", async () => {
    const { client, settled, declined, otherRow } = await mixedPlatform();
    const res = await list(client, "limit=100");
    expect(res.status).toBe(200);
    const types = res.body.data.map((r) => r.type);
    expect(types.filter((t) => t === "INCOMING")).toHaveLength(3);
    expect(
      res.body.data
        .filter((r) => r.type === "CARD")
        .map((r) => r.id)
        .sort(),
    ).toEqual([settled, declined, otherRow].sort());
    expect(res.body.totalCount).toBe(6);
  });

  test("type=CARD lists card rows only; type=INCOMING lists none", async () => {
    const { client, settled, declined, otherRow } = await mixedPlatform();
    const cards = await list(client, "type=CARD");
    expect(cards.body.data.map((r) => r.id).sort()).toEqual([settled, declined, otherRow].sort());
    expect(cards.body.data.every((r) => r.type === "CARD")).toBe(true);
    expect(cards.body.totalCount).toBe(3);
    const incoming = await list(client, "type=INCOMING");
    expect(incoming.body.data.every((r) => r.type === "INCOMING")).toBe(true);
    expect(incoming.body.totalCount).toBe(3);
  });

  test("cardId selects that card's rows only", async () => {
    const { client, cardId, settled, declined, other, otherRow } = await mixedPlatform();
    const mine = await list(client, `cardId=${encodeURIComponent(cardId)}`);
    expect(mine.body.data.map((r) => r.id).sort()).toEqual([settled, declined].sort());
    expect(mine.body.data.every((r) => r.cardId === cardId)).toBe(true);
    const theirs = await list(client, `cardId=${other.cardId}&type=CARD`);
    expect(theirs.body.data.map((r) => r.id)).toEqual([otherRow]);
    expect((await list(client, `cardId=${cardId}&type=INCOMING`)).body.data).toEqual([]);
    expect((await list(client, "cardId=Card:01900000-0000-7000-8000-0000000004d2")).body.totalCount).toBe(0);
  });

  test("customerId and accountIdentifier include the cardholder's card rows", async () => {
    const { client, holder, settled, declined } = await mixedPlatform();
    const byCustomer = await list(client, `customerId=${holder.customerId}&type=CARD`);
    expect(byCustomer.body.data.map((r) => r.id).sort()).toEqual([settled, declined].sort());
    const byAccount = await list(client, `accountIdentifier=${holder.accountId}`);
    expect(byAccount.body.totalCount).toBe(4);
  });

  test("status with type=CARD -> 400 INVALID_INPUT on status", async () => {
    const { client } = await mixedPlatform();
    const res = await list(client, "type=CARD&status=COMPLETED");
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["status"]);
  });

  test("status without type returns payment rows only", async () => {
    const { client } = await mixedPlatform();
    const res = await list(client, "status=COMPLETED&limit=100");
    expect(res.status).toBe(200);
    expect(res.body.data.map((r) => r.type)).toEqual(["INCOMING", "INCOMING", "INCOMING"]);
    expect(res.body.totalCount).toBe(3);
    // Card statuses are not payment statuses: the enum refuses them.
    const cardStatus = await list(client, "status=SETTLED");
    expect(cardStatus.status).toBe(400);
    expect(cardStatus.body.details?.errors.map((e) => e.field)).toEqual(["status"]);
  });

  test.each(["desc", "asc"] as const)(
    "pagination across mixed rows with cursor (%s): no duplicates, no gaps, the same order as one page",
    async (sortOrder) => {
      const { platform, client } = await cardPlatform(server);
      const { holder, cardId } = await fundedCard(server, client, 100_000);
      // Some rows share one createdAt (the clock stands still), others are a minute apart.
      for (let i = 0; i < 5; i++) {
        await fund(client, holder.accountId, 100 + i);
        await authorize(client, cardId, 10 + i);
        if (i % 2 === 1) await advance(server, client, 60_000);
        await authorize(client, cardId, 1, { ...SHOP, descriptor: "NOPE 009" });
      }
      const whole = await list(client, `limit=100&sortOrder=${sortOrder}`);
      expect(whole.body.totalCount).toBe(16);
      expect(whole.body.hasMore).toBe(false);
      const key = (r: Row) => [r.createdAt, r.id] as const;
      const sorted = [...whole.body.data].sort((a, b) => {
        const [ca, ia] = key(a);
        const [cb, ib] = key(b);
        const order = ca < cb ? -1 : ca > cb ? 1 : ia < ib ? -1 : ia > ib ? 1 : 0;
        return sortOrder === "asc" ? order : -order;
      });
      expect(whole.body.data.map((r) => r.createdAt)).toEqual(sorted.map((r) => r.createdAt));

      for (const limit of [1, 3, 4, 7]) {
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let pages = 0; pages < 20; pages++) {
          const query = `limit=${limit}&sortOrder=${sortOrder}${cursor ? `&cursor=${cursor}` : ""}`;
          const page = await list(client, query);
          expect(page.status, page.text).toBe(200);
          expect(page.body.totalCount).toBe(16);
          seen.push(...page.body.data.map((r) => r.id));
          if (!page.body.hasMore) {
            expect(page.body).not.toHaveProperty("nextCursor");
            break;
          }
          cursor = page.body.nextCursor;
        }
        expect(seen, `limit ${limit}`).toEqual(whole.body.data.map((r) => r.id));
      }
      expect(platform.platformId).toEqual(expect.any(String));
    },
  );

  test("desc is asc reversed over mixed rows", async () => {
    const { client } = await mixedPlatform();
    const desc = await list(client, "limit=100&sortOrder=desc");
    const asc = await list(client, "limit=100&sortOrder=asc");
    expect(desc.body.data.map((r) => r.id)).toEqual(asc.body.data.map((r) => r.id).reverse());
  });

  test("GET /transactions/{CardTransaction id} returns the list row, which is also the latest event's data", async () => {
    const { platform, client, cardId, settled, declined } = await mixedPlatform();
    const refund = await simulateOk(client, cardId, "return", { cardTransactionId: settled, amount: 400 });
    const rows = (await list(client, "type=CARD&limit=100")).body.data as unknown as CardTransaction[];
    const events = await eventsOf(server, platform.platformId, "CARD_TRANSACTION.");
    for (const id of [settled, declined, refund]) {
      const read = await cardTransaction(client, id);
      expect(rows.find((r) => r.id === id)).toEqual(read);
      expect(events.filter((e) => e.data.id === id).at(-1)?.data).toEqual(read);
      expect(read.platformCustomerId === undefined || typeof read.platformCustomerId === "string").toBe(true);
    }
    // The path id may carry ':' encoded as %3A (conventions §1.1).
    expect((await client.get(`/transactions/${encodeURIComponent(settled)}`)).body).toEqual(
      await cardTransaction(client, settled),
    );
  });

  test("the cardholder's platformCustomerId is on the row, in the list and in events alike", async () => {
    const { platform, client } = await cardPlatform(server);
    const customer = await client.post<{ id: string }>("/customers", {
      customerType: "INDIVIDUAL",
      fullName: "Card Holder 457",
      platformCustomerId: "ext-457",
    });
    const accounts = await client.get<{ data: { id: string }[] }>(
      `/customers/internal-accounts?customerId=${customer.body.id}&currency=USD&type=INTERNAL_FIAT`,
    );
    const accountId = accounts.body.data[0]?.id ?? "";
    await fund(client, accountId, 1_000);
    const issued = await client.post<{ id: string }>("/cards", {
      cardholderId: customer.body.id,
      form: "VIRTUAL",
      fundingSources: [accountId],
    });
    await server.jobs.runDue();
    const id = await authorize(client, issued.body.id, 100);
    const read = await cardTransaction(client, id);
    expect(read.platformCustomerId).toBe("ext-457");
    expect((await list(client, "platformCustomerId=ext-457&type=CARD")).body.data).toEqual([read]);
    const [event] = (await eventsOf(server, platform.platformId, "CARD_TRANSACTION.")).filter(
      (e) => e.data.id === id,
    );
    expect(event?.data).toEqual(read);
  });

  test("another platform's, an unknown or a malformed card transaction id -> 404 TRANSACTION_NOT_FOUND", async () => {
    const mine = await mixedPlatform();
    const theirs = await cardPlatform(server);
    for (const id of [
      mine.settled,
      "CardTransaction:01900000-0000-7000-8000-0000000004d2",
      "CardTransaction:zzz",
    ]) {
      const res = await theirs.client.get<ErrorBody>(`/transactions/${id}`);
      expect([res.status, res.body.code], id).toEqual([404, "TRANSACTION_NOT_FOUND"]);
    }
  });
});

describe("periodic statement rule 8", () => {
  test("the account's balance-changes window holds its clearings and refunds and no declined authorization", async () => {
    const { client, holder, cardId } = await (async () => {
      const setup = await cardPlatform(server);
      return { client: setup.client, ...(await fundedCard(server, setup.client, 10_000)) };
    })();
    const from = (await client.get<{ now: string }>("/sandbox/clock")).body.now;
    const purchase = await authorize(client, cardId, 2_000);
    await clear(client, cardId, purchase, 1_200);
    await clear(client, cardId, purchase, 800);
    const refund = await simulateOk(client, cardId, "return", { cardTransactionId: purchase, amount: 300 });
    const declined = await authorize(client, cardId, 50_000);
    const blocked = await authorize(client, cardId, 10, { ...SHOP, descriptor: "NOPE 007" });
    await advance(server, client, 60_000);
    const to = (await client.get<{ now: string }>("/sandbox/clock")).body.now;
    await advance(server, client, LAG_MS);

    const window = await client.get<{
      data: { amount: { amount: number }; fee: { amount: number }; transactionId: string }[];
      openingBalance: { amount: number };
      closingBalance: { amount: number };
    }>(
      `/internal-accounts/${holder.accountId}/balance-changes?from=${encodeURIComponent(
        new Date(Date.parse(from) - 3_600_000).toISOString(),
      )}&to=${encodeURIComponent(to)}`,
    );
    expect(window.status, window.text).toBe(200);
    const cardLines = window.body.data.filter((c) => c.transactionId.startsWith("CardTransaction:"));
    expect(cardLines.map((c) => [c.transactionId, c.amount.amount, c.fee.amount])).toEqual([
      [purchase, -1_200, 0],
      [purchase, -800, 0],
      [refund, 300, 0],
    ]);
    const named = window.body.data.map((c) => c.transactionId);
    expect(named).not.toContain(declined);
    expect(named).not.toContain(blocked);
    expect((await cardTransaction(client, declined)).status).toBe("DECLINED");
    const sum = window.body.data.reduce((total, c) => total + c.amount.amount, 0);
    expect(window.body.openingBalance.amount + sum).toBe(window.body.closingBalance.amount);
    expect(window.body.closingBalance.amount).toBe(8_300);
  });
});
