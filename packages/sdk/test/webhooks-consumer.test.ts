import { describe, expect, test } from "vitest";
import { MemoryConsumerStore, WebhookConsumer, type WebhookEvent } from "../src/index.js";

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
let n = 0;
const ev = (type: string, data: Record<string, unknown>): WebhookEvent => ({
  id: `Webhook:${++n}`,
  type,
  timestamp: String(data.updatedAt),
  data,
});

const card = "Card:1";
const purchase = "CardTransaction:1";
const events = [
  ev("CARD.STATUS_CHANGE", { id: card, status: "ACTIVE", updatedAt: at(1) }),
  ev("CARD.STATUS_CHANGE", { id: card, status: "FROZEN", updatedAt: at(2) }),
  ev("CARD.PIN_STATUS_CHANGE", { id: card, status: "FROZEN", pinStatus: "OK", updatedAt: at(3) }),
  ev("CARD_TRANSACTION.AUTHORIZED", { id: purchase, status: "AUTHORIZED", updatedAt: at(4) }),
  ev("CARD_TRANSACTION.SETTLED", { id: purchase, status: "SETTLED", updatedAt: at(5) }),
  ev("CARD_TRANSACTION.SETTLED", { id: purchase, status: "SETTLED", refundedAmount: 100, updatedAt: at(7) }),
  ev("CARD_TRANSACTION.SETTLED", {
    id: "CardTransaction:2",
    direction: "CREDIT",
    originalTransactionId: purchase,
    status: "SETTLED",
    updatedAt: at(7),
  }),
];

function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

async function apply(list: WebhookEvent[]) {
  const store = new MemoryConsumerStore();
  const consumer = new WebhookConsumer(store);
  const results = [];
  for (const event of list) results.push(await consumer.consume(event));
  return { store, results };
}

describe("consumer helper (spec Events rules 1-3)", () => {
  test("events delivered shuffled and duplicated end in the same state as in order", async () => {
    const expected = await apply(events);
    expect(expected.store.cards.get(card)).toMatchObject({ status: "FROZEN", pinStatus: "OK" });
    expect(expected.store.cardTransactions.get(purchase)).toMatchObject({ refundedAmount: 100 });
    for (let seed = 1; seed <= 25; seed++) {
      const { store } = await apply(shuffled([...events, ...events, ...events.slice(0, 3)], seed));
      expect(store.cards).toEqual(expected.store.cards);
      expect(store.cardTransactions).toEqual(expected.store.cardTransactions);
    }
  });

  test("a duplicate event id is answered 200 and not applied again", async () => {
    const { results } = await apply([events[0], events[0]].filter((e): e is WebhookEvent => !!e));
    expect(results).toEqual([
      { status: 200, duplicate: false },
      { status: 200, duplicate: true },
    ]);
  });

  test("a card snapshot is replaced only by a newer data.updatedAt", async () => {
    const { store } = await apply([events[1], events[0]].filter((e): e is WebhookEvent => !!e));
    expect(store.cards.get(card)?.status).toBe("FROZEN");
  });

  test("a merchant return is a new CREDIT row keyed on data.id, whatever the event type", async () => {
    const { store } = await apply(events);
    expect(store.cardTransactions.get("CardTransaction:2")).toMatchObject({
      direction: "CREDIT",
      originalTransactionId: purchase,
    });
    expect(store.cardTransactions.size).toBe(2);
  });

  test("other event types go to onEvent once", async () => {
    const seen: string[] = [];
    const consumer = new WebhookConsumer(new MemoryConsumerStore(), async (e) => void seen.push(e.type));
    const test = ev("TEST", { updatedAt: at(0) });
    await consumer.consume(test);
    await consumer.consume(test);
    expect(seen).toEqual(["TEST"]);
  });
});
