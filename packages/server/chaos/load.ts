import { type Answer, send, sleep } from "./http.js";

export type OpKind = "fund" | "transfer" | "authorization" | "clearing" | "return";

/**
 * One money-moving request and what identifies its effect in the database. Every request carries its own
 * Idempotency-Key and a unique amount (from `seq`), so its effect rows can be counted afterwards.
 */
export interface Op {
  seq: number;
  kind: OpKind;
  path: string;
  body: unknown;
  key: string;
  amount: number;
  accountId: string;
  toAccountId?: string;
  cardId?: string;
  cardTransactionId?: string;
  /** The first definitive answer (status and error code), once one arrived. */
  outcome?: { status: number; code?: string; responseLost?: boolean };
  /** Answers that were lost (transport failure) or `409` "still running" for this key. */
  lostAnswers: number;
}

export interface Holder {
  accountId: string;
  cardId: string;
}

const SHOP = { descriptor: "CHAOS COFFEE SHOP", mcc: "5814", country: "US" };

/** `409 CONFLICT` for a key whose first request has not finished (or never will: see the docs). */
function inProgress(answer: Answer): boolean {
  return (
    !answer.lost &&
    answer.status === 409 &&
    answer.body.code === "CONFLICT" &&
    /still running|being claimed/.test(String(answer.body.reason))
  );
}

/** `409 CONFLICT` for a key whose request completed but whose response was lost in a crash. */
function responseLost(answer: Answer): boolean {
  return !answer.lost && answer.status === 409 && /response was lost/.test(String(answer.body.reason));
}

/** Drives mixed load against whichever processes are up, and retries lost answers with the same key. */
export class Load {
  readonly ops: Op[] = [];
  readonly statuses: Record<string, number> = {};
  readonly violations: string[] = [];
  requests = 0;
  lostResponses = 0;
  readonly retriedKeys = new Set<string>();
  /** Keys still answered "still running" after the retries (their first request died mid-way). */
  stuck: Op[] = [];
  private pending = new Set<Op>();
  private authorized: Op[] = [];
  private cleared: Op[] = [];
  private seq = 0;
  private stopped = false;

  constructor(
    private readonly authorization: string,
    private readonly holders: Holder[],
    private readonly random: () => number,
    private readonly liveUrls: () => string[],
  ) {}

  private pick<T>(items: T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  private next(): Op {
    const seq = ++this.seq;
    const key = `chaos-${seq}-${Math.floor(this.random() * 1e9)}`;
    const r = this.random();
    const holder = this.pick(this.holders);
    const base = { seq, key, lostAnswers: 0, accountId: holder.accountId };
    if (r < 0.15 && this.cleared.length > 0) {
      const cleared = this.cleared.splice(Math.floor(this.random() * this.cleared.length), 1)[0] as Op;
      const body = { cardTransactionId: cleared.cardTransactionId, amount: 50 };
      return {
        ...base,
        kind: "return",
        accountId: cleared.accountId,
        cardId: cleared.cardId,
        cardTransactionId: cleared.cardTransactionId,
        amount: 50,
        path: `/sandbox/cards/${cleared.cardId}/simulate/return`,
        body,
      } as Op;
    }
    if (r < 0.35 && this.authorized.length > 0) {
      const auth = this.authorized.splice(Math.floor(this.random() * this.authorized.length), 1)[0] as Op;
      return {
        ...base,
        kind: "clearing",
        accountId: auth.accountId,
        cardId: auth.cardId,
        cardTransactionId: auth.cardTransactionId,
        amount: auth.amount,
        path: `/sandbox/cards/${auth.cardId}/simulate/clearing`,
        body: { cardTransactionId: auth.cardTransactionId, amount: auth.amount },
      } as Op;
    }
    if (r < 0.6) {
      const amount = 100 + seq;
      return {
        ...base,
        kind: "authorization",
        cardId: holder.cardId,
        amount,
        path: `/sandbox/cards/${holder.cardId}/simulate/authorization`,
        body: { amount, currency: { code: "USD" }, merchant: SHOP },
      };
    }
    if (r < 0.85) {
      const to = this.pick(this.holders.filter((h) => h !== holder));
      const amount = 100 + seq;
      return {
        ...base,
        kind: "transfer",
        toAccountId: to.accountId,
        amount,
        path: "/quotes",
        body: {
          source: { sourceType: "ACCOUNT", accountId: holder.accountId },
          destination: { destinationType: "ACCOUNT", accountId: to.accountId },
          lockedCurrencySide: "SENDING",
          lockedCurrencyAmount: amount,
          immediatelyExecute: true,
        },
      };
    }
    const amount = 1_000_000 + seq;
    return {
      ...base,
      kind: "fund",
      amount,
      path: `/sandbox/internal-accounts/${holder.accountId}/fund`,
      body: { amount },
    };
  }

  /** Sends an op once to a live process; records the answer. Returns false when it must be retried. */
  private async attempt(op: Op): Promise<boolean> {
    let urls = this.liveUrls();
    while (urls.length === 0) {
      await sleep(25);
      urls = this.liveUrls();
    }
    this.requests++;
    const answer = await send(this.pick(urls), this.authorization, "POST", op.path, op.body, {
      "idempotency-key": op.key,
    });
    const label = answer.lost
      ? "lost"
      : `${answer.status}${answer.body.code ? ` ${String(answer.body.code)}` : ""}`;
    this.statuses[label] = (this.statuses[label] ?? 0) + 1;
    if (answer.lost || inProgress(answer)) {
      if (answer.lost) this.lostResponses++;
      op.lostAnswers++;
      this.pending.add(op);
      return false;
    }
    this.pending.delete(op);
    if (answer.status >= 500)
      this.violations.push(
        `${op.kind} ${op.path} (key ${op.key}) answered ${answer.status}: ${JSON.stringify(answer.body)}`,
      );
    if (op.outcome && op.outcome.status !== answer.status)
      this.violations.push(
        `key ${op.key} answered ${op.outcome.status} first and ${answer.status} on a retry (${op.kind})`,
      );
    if (!op.outcome) {
      op.outcome = { status: answer.status, ...(answer.body.code ? { code: String(answer.body.code) } : {}) };
      // The key's effect committed but the process died before the response was stored (conventions §1.8
      // as recorded in docs/decisions.md): the one 409 that carries an effect.
      if (responseLost(answer)) op.outcome.responseLost = true;
      if (op.kind === "authorization" && answer.status === 202) {
        op.cardTransactionId = String(answer.body.cardTransactionId);
        this.authorized.push(op);
      }
      if (op.kind === "clearing" && answer.status === 202) this.cleared.push(op);
    }
    return true;
  }

  /** `workers` concurrent loops sending new ops until `stop()`. */
  run(workers: number): Promise<void> {
    this.stopped = false;
    return Promise.all(
      Array.from({ length: workers }, async () => {
        while (!this.stopped) {
          const op = this.next();
          this.ops.push(op);
          await this.attempt(op);
        }
      }),
    ).then(() => undefined);
  }

  stop(): void {
    this.stopped = true;
  }

  /**
   * Retries every op whose answer was lost, with the same key and body, until a definitive answer; a key
   * still "running" after `tries` belongs to a request that died after claiming it and is kept as stuck.
   */
  async settle(tries = 4): Promise<void> {
    const ops = [...this.pending];
    for (const op of ops) this.retriedKeys.add(op.key);
    this.stuck = [];
    await Promise.all(
      ops.map(async (op) => {
        for (let i = 0; i < tries; i++) {
          if (await this.attempt(op)) return;
          await sleep(250);
        }
        this.stuck.push(op);
      }),
    );
  }
}
