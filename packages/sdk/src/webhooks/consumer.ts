import type { WebhookEvent } from "./envelope.js";

/** A resource snapshot as events carry it: at least an id and an `updatedAt` date-time. */
export interface Snapshot {
  id: string;
  updatedAt: string;
  [field: string]: unknown;
}

/**
 * Where the consumer keeps what it has seen. Back it with your database; `MemoryConsumerStore` is for
 * tests and the example. `markProcessed` runs after the event is applied, so a crash in between
 * re-applies it, which the rules below make harmless.
 */
export interface ConsumerStore {
  isProcessed(eventId: string): Promise<boolean>;
  markProcessed(eventId: string): Promise<void>;
  getCard(id: string): Promise<Snapshot | undefined>;
  putCard(card: Snapshot): Promise<void>;
  getCardTransaction(id: string): Promise<Snapshot | undefined>;
  putCardTransaction(transaction: Snapshot): Promise<void>;
}

export class MemoryConsumerStore implements ConsumerStore {
  readonly processed = new Set<string>();
  readonly cards = new Map<string, Snapshot>();
  readonly cardTransactions = new Map<string, Snapshot>();

  async isProcessed(eventId: string) {
    return this.processed.has(eventId);
  }
  async markProcessed(eventId: string) {
    this.processed.add(eventId);
  }
  async getCard(id: string) {
    return this.cards.get(id);
  }
  async putCard(card: Snapshot) {
    this.cards.set(card.id, card);
  }
  async getCardTransaction(id: string) {
    return this.cardTransactions.get(id);
  }
  async putCardTransaction(transaction: Snapshot) {
    this.cardTransactions.set(transaction.id, transaction);
  }
}

/** Whether `next` should replace `held`: nothing held, or `next.updatedAt` is newer (spec Events rule 2). */
export function isNewer(next: Snapshot, held: Snapshot | undefined): boolean {
  return !held || Date.parse(next.updatedAt) > Date.parse(held.updatedAt);
}

function isSnapshot(data: unknown): data is Snapshot {
  const value = data as Partial<Snapshot> | null;
  return typeof value?.id === "string" && typeof value.updatedAt === "string";
}

export interface ConsumeResult {
  /** Answer the delivery with this status: 200, also for a duplicate (spec Events rule 1). */
  status: 200;
  duplicate: boolean;
}

/**
 * Applies the spec's consumer rules (Events rules 1-3): duplicates by envelope `id` are acknowledged and
 * skipped; a card snapshot replaces the held one only if its `data.updatedAt` is newer; card transactions
 * are upserted by `data.id` whatever the event type (a merchant return is a new CREDIT row), keeping the
 * newest `updatedAt`. Events shuffled and duplicated end in the same state. Other types go to `onEvent`.
 */
export class WebhookConsumer {
  constructor(
    private readonly store: ConsumerStore,
    private readonly onEvent: (event: WebhookEvent) => Promise<void> = async () => undefined,
  ) {}

  async consume(event: WebhookEvent): Promise<ConsumeResult> {
    if (await this.store.isProcessed(event.id)) return { status: 200, duplicate: true };
    const data = event.data;
    if (event.type.startsWith("CARD.") && isSnapshot(data)) {
      if (isNewer(data, await this.store.getCard(data.id))) await this.store.putCard(data);
    } else if (event.type.startsWith("CARD_TRANSACTION.") && isSnapshot(data)) {
      if (isNewer(data, await this.store.getCardTransaction(data.id)))
        await this.store.putCardTransaction(data);
    } else {
      await this.onEvent(event);
    }
    await this.store.markProcessed(event.id);
    return { status: 200, duplicate: false };
  }
}
