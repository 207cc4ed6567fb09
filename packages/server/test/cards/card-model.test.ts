import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { cardTransactionStatuses } from "../../src/cards/schemas.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { sizes, timeoutFor } from "../sizes.js";
import { cardPlatform } from "./helpers.js";
import { authorize, balances, clear, fundedCard, opening, SHOP, simulate } from "./transaction-helpers.js";

// Model-based test of conventions §6.4-§6.5 and the interface's card transaction state table: random
// sequences of network messages and card status changes against the real HTTP server, with the ledger,
// the holds, the statuses and the CARD_TRANSACTION.* events checked after every step.

let server: TestServer;
let client: TestClient;
beforeAll(async () => {
  server = await startServer();
  ({ client } = await cardPlatform(server));
});
afterAll(() => server.close());

const FUNDS = 10_000;
/** Card 1 has no spend limit; card 2 has this one. */
const LIMIT = 2_500;

type Status = (typeof cardTransactionStatuses)[number];
type CardStatus = "ACTIVE" | "FROZEN" | "CLOSED";

interface ModelRow {
  id: string;
  card: number;
  direction: "DEBIT" | "CREDIT";
  status: Status;
  authorized: number;
  hold: number;
  settled: number | null;
  refunded: number | null;
  /** Refund rows: the purchase. */
  original: string | null;
  /** Descriptor 006: the first clearing ends in EXCEPTION. */
  exceptionOnClearing: boolean;
}

interface Model {
  cards: { id: string; status: CardStatus; limit: number | null }[];
  accountId: string;
  total: number;
  rows: ModelRow[];
}

interface Real {
  seenEvents: Set<string>;
}

const open = (row: ModelRow) => row.status === "AUTHORIZED" || row.status === "PARTIALLY_SETTLED";
const holds = (model: Model) => model.rows.reduce((sum, row) => sum + row.hold, 0);
const available = (model: Model) => model.total - holds(model);

/** The interface's card transaction state table (plus the refund row's VOIDED on a return reversal). */
const allowedNext: Record<Status, readonly Status[]> = {
  AUTHORIZED: ["AUTHORIZED", "PARTIALLY_SETTLED", "SETTLED", "VOIDED", "EXCEPTION"],
  PARTIALLY_SETTLED: ["PARTIALLY_SETTLED", "SETTLED", "EXCEPTION"],
  SETTLED: ["SETTLED", "VOIDED"],
  VOIDED: ["VOIDED"],
  EXCEPTION: ["EXCEPTION"],
  DECLINED: ["DECLINED"],
};

/** The step's new CARD_TRANSACTION.* events for this run's cards: `type data.id`. */
async function newEvents(model: Model, real: Real): Promise<{ type: string; id: string; status: string }[]> {
  const rows = await server.db.query<{ id: string; type: string; body: string }>(
    `SELECT id, type, body FROM webhook_events WHERE type LIKE 'CARD_TRANSACTION.%'
       AND (body::jsonb -> 'data' ->> 'cardId') = ANY($1) ORDER BY created_at, id`,
    [model.cards.map((c) => c.id)],
  );
  const fresh = rows.filter((r) => !real.seenEvents.has(r.id));
  for (const r of fresh) real.seenEvents.add(r.id);
  return fresh.map((r) => {
    const data = (JSON.parse(r.body) as { data: { id: string; status: string } }).data;
    return { type: r.type, id: data.id, status: data.status };
  });
}

/** Everything that must hold after every step. */
async function checkInvariants(model: Model, previous: Map<string, Status>): Promise<void> {
  const { accountId } = model;
  const [ledger] = await server.db.query<{ sum: number }>(
    "SELECT COALESCE(sum(amount), 0)::int8 AS sum FROM balance_changes WHERE account_id = $1",
    [accountId],
  );
  const account = await balances(client, accountId);
  expect(account.totalBalance, "totalBalance = sum of the account's balance changes").toBe(ledger?.sum);
  expect(account.totalBalance, "totalBalance = model").toBe(model.total);

  const rows = await server.db.query<{ id: string; status: Status; hold_amount: number }>(
    "SELECT id, status, hold_amount FROM card_transactions WHERE account_id = $1",
    [accountId],
  );
  const openHolds = rows
    .filter((r) => r.status === "AUTHORIZED" || r.status === "PARTIALLY_SETTLED")
    .reduce((sum, r) => sum + r.hold_amount, 0);
  expect(account.balance, "balance = totalBalance - open holds").toBe(account.totalBalance - openHolds);
  expect(account.balance, "balance = model").toBe(available(model));
  for (const r of rows) {
    expect(cardTransactionStatuses, `${r.id} status`).toContain(r.status);
    if (r.status !== "AUTHORIZED" && r.status !== "PARTIALLY_SETTLED") expect(r.hold_amount, r.id).toBe(0);
    const before = previous.get(r.id);
    if (before) expect(allowedNext[before], `${r.id}: ${before} -> ${r.status}`).toContain(r.status);
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  expect(rows).toHaveLength(model.rows.length);
  for (const m of model.rows) {
    expect(byId.get(m.id)?.status, `${m.id} status = model`).toBe(m.status);
    expect(byId.get(m.id)?.hold_amount, `${m.id} hold = model`).toBe(m.hold);
  }
}

/** Runs one step: the simulation, then the invariants and the event count (one per row changed). */
async function step(
  model: Model,
  real: Real,
  action: () => Promise<{ status: number; changed: string[] }>,
): Promise<void> {
  const previous = new Map(model.rows.map((r) => [r.id, r.status]));
  const { changed } = await action();
  await checkInvariants(model, previous);
  const events = await newEvents(model, real);
  expect(events.map((e) => e.id).sort(), "one CARD_TRANSACTION event per row changed").toEqual(
    [...changed].sort(),
  );
}

/**
 * The row a command targets: with `fitting`, one that meets `fits` when there is one (so accepted
 * messages are common), else any row (so refused ones are tried too).
 */
function pick(model: Model, index: number, fitting: boolean, fits: (row: ModelRow) => boolean): ModelRow {
  const candidates = fitting ? model.rows.filter(fits) : [];
  const from = candidates.length > 0 ? candidates : model.rows;
  return from[index % from.length] as ModelRow;
}
const returnable = (row: ModelRow) =>
  row.direction === "DEBIT" && row.original === null && (row.settled ?? 0) > (row.refunded ?? 0);
const reversible = (row: ModelRow) => row.original !== null && row.status === "SETTLED";

class Authorize implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly card: number,
    readonly amount: number,
    readonly suffix: string,
    readonly credit: boolean,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    await step(model, real, async () => {
      const card = model.cards[this.card % model.cards.length];
      if (!card) throw new Error("no card");
      const merchant = { ...SHOP, descriptor: `SHOP ${this.suffix}` };
      const op = this.credit ? "credit_authorization" : "authorization";
      const res = await simulate(client, card.id, op, opening(this.amount, merchant));
      expect(res.status, res.text).toBe(202);
      const id = res.body.cardTransactionId;
      // Conventions §6.5 decline checks in order (every source here is ACTIVE; credits skip 3 and 5).
      const reason =
        card.status !== "ACTIVE"
          ? "CARD_NOT_ACTIVE"
          : !this.credit && card.limit !== null && this.amount > card.limit
            ? "SPEND_LIMIT_EXCEEDED"
            : this.suffix === "002"
              ? "INSUFFICIENT_FUNDS"
              : this.suffix === "007"
                ? "BLOCKED"
                : !this.credit && available(model) < this.amount
                  ? "INSUFFICIENT_FUNDS"
                  : null;
      model.rows.push({
        id,
        card: this.card % model.cards.length,
        direction: this.credit ? "CREDIT" : "DEBIT",
        status: reason ? "DECLINED" : "AUTHORIZED",
        authorized: this.amount,
        hold: reason || this.credit ? 0 : this.amount,
        settled: null,
        refunded: null,
        original: null,
        exceptionOnClearing: !reason && this.suffix === "006",
      });
      const row = await server.db.query<{ card_declined_reason: string | null }>(
        "SELECT card_declined_reason FROM card_transactions WHERE id = $1",
        [id],
      );
      expect(row[0]?.card_declined_reason ?? null, "cardDeclinedReason").toBe(reason);
      return { status: res.status, changed: [id] };
    });
  }
  toString = () => `${this.credit ? "credit" : "auth"}(card ${this.card}, ${this.amount}, ${this.suffix})`;
}

class Clear implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly row: number,
    readonly fitting: boolean,
    readonly kind: "partial" | "full" | "zero" | "above",
    readonly fraction: number,
  ) {}
  check = (model: Readonly<Model>) => model.rows.length > 0;
  async run(model: Model, real: Real) {
    await step(model, real, async () => {
      const row = pick(model, this.row, this.fitting, open);
      const card = model.cards[row.card] as Model["cards"][number];
      const remaining = Math.max(0, row.authorized - (row.settled ?? 0));
      const amount =
        this.kind === "zero"
          ? 0
          : this.kind === "full"
            ? Math.max(1, remaining)
            : this.kind === "above"
              ? remaining + 1 + Math.floor(this.fraction * 3_000)
              : Math.max(1, Math.floor(remaining * this.fraction));
      const res = await simulate(client, card.id, "clearing", { cardTransactionId: row.id, amount });
      if (!open(row)) {
        expect([res.status, res.body.code], res.text).toEqual([409, "CONFLICT"]);
        return { status: res.status, changed: [] };
      }
      expect(res.status, res.text).toBe(202);
      if (amount === 0) {
        row.status = row.status === "AUTHORIZED" ? "VOIDED" : "SETTLED";
        row.hold = 0;
        return { status: res.status, changed: [row.id] };
      }
      const settled = (row.settled ?? 0) + amount;
      const reaches = settled >= row.authorized;
      if (row.direction === "CREDIT") {
        model.total += amount;
        row.status = reaches ? "SETTLED" : "PARTIALLY_SETTLED";
      } else {
        // Conventions §6.4: what the account covers (its available balance plus this row's own hold).
        const covered = Math.max(0, available(model) + row.hold);
        const debit = Math.min(amount, covered);
        model.total -= debit;
        const exception = debit < amount || row.exceptionOnClearing;
        row.status = exception ? "EXCEPTION" : reaches ? "SETTLED" : "PARTIALLY_SETTLED";
        row.hold = row.status === "PARTIALLY_SETTLED" ? row.hold - Math.min(row.hold, amount) : 0;
        row.exceptionOnClearing = false;
      }
      row.settled = settled;
      return { status: res.status, changed: [row.id] };
    });
  }
  toString = () =>
    `clear(row ${this.row}${this.fitting ? "" : " any"}, ${this.kind}, ${this.fraction.toFixed(2)})`;
}

class Return implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly row: number,
    readonly fitting: boolean,
    readonly fraction: number,
    readonly over: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.rows.length > 0;
  async run(model: Model, real: Real) {
    await step(model, real, async () => {
      const purchase = pick(model, this.row, this.fitting, returnable);
      const card = model.cards[purchase.card] as Model["cards"][number];
      const left = (purchase.settled ?? 0) - (purchase.refunded ?? 0);
      const amount = this.over ? left + 1 : Math.max(1, Math.floor(left * this.fraction));
      const res = await simulate(client, card.id, "return", { cardTransactionId: purchase.id, amount });
      const purchaseRow = purchase.direction === "DEBIT" && purchase.original === null;
      if (!purchaseRow || (purchase.settled ?? 0) === 0 || amount > left) {
        expect([res.status, res.body.code], res.text).toEqual([409, "CONFLICT"]);
        return { status: res.status, changed: [] };
      }
      expect(res.status, res.text).toBe(202);
      const refund = res.body.cardTransactionId;
      model.total += amount;
      purchase.refunded = (purchase.refunded ?? 0) + amount;
      model.rows.push({
        id: refund,
        card: purchase.card,
        direction: "CREDIT",
        status: "SETTLED",
        authorized: amount,
        hold: 0,
        settled: amount,
        refunded: null,
        original: purchase.id,
        exceptionOnClearing: false,
      });
      return { status: res.status, changed: [refund, purchase.id] };
    });
  }
  toString = () =>
    `return(row ${this.row}${this.fitting ? "" : " any"}, ${this.fraction.toFixed(2)}${this.over ? ", over" : ""})`;
}

class ReverseReturn implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly row: number,
    readonly fitting: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.rows.length > 0;
  async run(model: Model, real: Real) {
    await step(model, real, async () => {
      const refund = pick(model, this.row, this.fitting, reversible);
      const card = model.cards[refund.card] as Model["cards"][number];
      const res = await simulate(client, card.id, "return_reversal", { cardTransactionId: refund.id });
      const purchase = model.rows.find((r) => r.id === refund.original);
      if (!purchase || refund.status !== "SETTLED") {
        expect([res.status, res.body.code], res.text).toEqual([409, "CONFLICT"]);
        return { status: res.status, changed: [] };
      }
      expect(res.status, res.text).toBe(202);
      const amount = refund.settled ?? 0;
      model.total -= amount;
      refund.status = "VOIDED";
      purchase.refunded = (purchase.refunded ?? 0) - amount;
      return { status: res.status, changed: [refund.id, purchase.id] };
    });
  }
  toString = () => `reverseReturn(row ${this.row}${this.fitting ? "" : " any"})`;
}

class Advise implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly row: number,
    readonly fitting: boolean,
    readonly amount: number,
  ) {}
  check = (model: Readonly<Model>) => model.rows.length > 0;
  async run(model: Model, real: Real) {
    await step(model, real, async () => {
      const row = pick(model, this.row, this.fitting, open);
      const card = model.cards[row.card] as Model["cards"][number];
      const res = await simulate(client, card.id, "authorization_advice", {
        cardTransactionId: row.id,
        amount: this.amount,
      });
      if (!open(row)) {
        expect([res.status, res.body.code], res.text).toEqual([409, "CONFLICT"]);
        return { status: res.status, changed: [] };
      }
      expect(res.status, res.text).toBe(202);
      row.authorized = this.amount;
      if (row.direction === "DEBIT") row.hold = Math.max(0, this.amount - (row.settled ?? 0));
      return { status: res.status, changed: [row.id] };
    });
  }
  toString = () => `advice(row ${this.row}${this.fitting ? "" : " any"}, ${this.amount})`;
}

class SetCardStatus implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly card: number,
    readonly status: CardStatus,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    await step(model, real, async () => {
      const card = model.cards[this.card % model.cards.length] as Model["cards"][number];
      const res = await client.patch<{ code?: string }>(`/cards/${card.id}`, { status: this.status });
      // The interface's card state table: CLOSED is final; the same status again is no transition.
      const expected =
        card.status === "CLOSED"
          ? this.status === "CLOSED"
            ? "CARD_ALREADY_CLOSED"
            : "CARD_NOT_MUTABLE"
          : card.status === this.status
            ? "INVALID_STATE_TRANSITION"
            : null;
      if (expected) {
        expect([res.status, res.body.code], res.text).toEqual([409, expected]);
      } else {
        expect(res.status, res.text).toBe(200);
        card.status = this.status;
      }
      return { status: res.status, changed: [] };
    });
  }
  toString = () => `card ${this.card} -> ${this.status}`;
}

const amountArb = fc.integer({ min: 1, max: 6_000 });
/** Mostly a row the command fits, sometimes any row. */
const fittingArb = fc.constantFrom(true, true, true, false);
const authorizationArb = fc
  .record({
    card: fc.nat(1),
    amount: amountArb,
    suffix: fc.constantFrom("457", "457", "457", "006", "007", "002"),
    credit: fc.constantFrom(false, false, false, true),
  })
  .map(({ card, amount, suffix, credit }) => new Authorize(card, amount, suffix, credit));
const commands = [
  authorizationArb,
  authorizationArb,
  fc
    .record({
      row: fc.nat(),
      fitting: fittingArb,
      kind: fc.constantFrom("partial" as const, "full" as const, "zero" as const, "above" as const),
      fraction: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map(({ row, fitting, kind, fraction }) => new Clear(row, fitting, kind, fraction)),
  fc
    .record({
      row: fc.nat(),
      fitting: fittingArb,
      fraction: fc.double({ min: 0, max: 1, noNaN: true }),
      over: fc.constantFrom(false, false, false, true),
    })
    .map(({ row, fitting, fraction, over }) => new Return(row, fitting, fraction, over)),
  fc
    .record({ row: fc.nat(), fitting: fittingArb })
    .map(({ row, fitting }) => new ReverseReturn(row, fitting)),
  fc
    .record({ row: fc.nat(), fitting: fittingArb, amount: amountArb })
    .map(({ row, fitting, amount }) => new Advise(row, fitting, amount)),
  fc
    .record({
      card: fc.nat(1),
      status: fc.constantFrom("FROZEN" as const, "ACTIVE" as const, "FROZEN" as const, "CLOSED" as const),
    })
    .map(({ card, status }) => new SetCardStatus(card, status)),
];

test(
  "card transactions model: after every step the ledger, the holds, the statuses and the events agree with conventions §6.4-§6.5",
  async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 15, size: "max" }), async (cmds) => {
        const first = await fundedCard(server, client, FUNDS);
        const second = await client.post<{ id: string }>("/cards", {
          cardholderId: first.holder.customerId,
          form: "VIRTUAL",
          fundingSources: [first.holder.accountId],
          maxSpendPerTransaction: LIMIT,
        });
        expect(second.status, second.text).toBe(201);
        await server.jobs.runDue();
        // Every run starts with an open purchase and a settled one, so each command has a row to act on.
        const open = await authorize(client, first.cardId, 1_000);
        const settled = await authorize(client, first.cardId, 1_500);
        await clear(client, first.cardId, settled, 1_500);
        const row = (id: string, amount: number, settledAmount: number | null): ModelRow => ({
          id,
          card: 0,
          direction: "DEBIT",
          status: settledAmount === null ? "AUTHORIZED" : "SETTLED",
          authorized: amount,
          hold: settledAmount === null ? amount : 0,
          settled: settledAmount,
          refunded: null,
          original: null,
          exceptionOnClearing: false,
        });
        const model: Model = {
          cards: [
            { id: first.cardId, status: "ACTIVE", limit: null },
            { id: second.body.id, status: "ACTIVE", limit: LIMIT },
          ],
          accountId: first.holder.accountId,
          total: FUNDS - 1_500,
          rows: [row(open, 1_000, null), row(settled, 1_500, 1_500)],
        };
        const real: Real = { seenEvents: new Set<string>() };
        await newEvents(model, real);
        await checkInvariants(model, new Map());
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      }),
      { numRuns: sizes.cardModelRuns },
    );
  },
  timeoutFor(sizes.cardModelRuns, 2_000),
);
