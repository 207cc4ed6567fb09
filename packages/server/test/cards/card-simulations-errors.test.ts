import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEFAULT_SETTLEMENT_LAG_MS } from "../../src/core/deps.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { cardPlatform } from "./helpers.js";
import {
  authorize,
  cardTransaction,
  clear,
  type ErrorBody,
  fundedCard,
  opening,
  SHOP,
  type SimulationOp,
  simulate,
  simulateOk,
} from "./transaction-helpers.js";

// Conventions §6.5 errors: 403 FORBIDDEN (non-sandbox platform), 404 NOT_FOUND (card) or
// TRANSACTION_NOT_FOUND, 400 INVALID_INPUT, 409 CONFLICT on a failed precondition; check order §1.7.

let server: TestServer;
let client: TestClient;
let platformId: string;
let cardId: string;
/** A SETTLED purchase on `cardId`. */
let settled: string;
/** An AUTHORIZED purchase on `cardId`. */
let open: string;
beforeAll(async () => {
  server = await startServer();
  const setup = await cardPlatform(server);
  client = setup.client;
  platformId = setup.platform.platformId;
  ({ cardId } = await fundedCard(server, client, 1_000_000));
  settled = await authorize(client, cardId, 1_000);
  await clear(client, cardId, settled, 1_000);
  open = await authorize(client, cardId, 1_000);
});
afterAll(() => server.close());

const UNKNOWN_CARD = "Card:01900000-0000-7000-8000-0000000004d2";
const UNKNOWN_TRANSACTION = "CardTransaction:01900000-0000-7000-8000-0000000004d2";
const iso = (ms: number) => new Date(ms).toISOString();
const FUTURE = () => iso(Date.now() + 3_600_000);
const BEFORE_LAG = () => iso(Date.now() - DEFAULT_SETTLEMENT_LAG_MS - 3_600_000);

/** A valid body for each op (the row ids are filled in when the tests run). */
function validBody(op: SimulationOp): Record<string, unknown> {
  switch (op) {
    case "clearing":
      return { cardTransactionId: open, amount: 0 };
    case "return":
      return { cardTransactionId: settled, amount: 1 };
    case "return_reversal":
      return { cardTransactionId: settled };
    case "authorization_advice":
      return { cardTransactionId: open, amount: 1_000 };
    case "balance_inquiry":
      return { merchant: SHOP };
    default:
      return opening(100);
  }
}

const ops: SimulationOp[] = [
  "authorization",
  "clearing",
  "return",
  "return_reversal",
  "authorization_advice",
  "balance_inquiry",
  "credit_authorization",
  "credit_authorization_advice",
  "financial_authorization",
  "financial_credit_authorization",
];
const openingOps: SimulationOp[] = [
  "authorization",
  "credit_authorization",
  "credit_authorization_advice",
  "financial_authorization",
  "financial_credit_authorization",
];

interface BadInput {
  op: SimulationOp;
  rule: string;
  /** The body, built from the op's valid body. */
  body: (valid: Record<string, unknown>) => unknown;
  /** The fields named in details.errors. */
  fields: string[];
}

const openingCases = openingOps.flatMap((op): BadInput[] => [
  { op, rule: "amount 0", body: (v) => ({ ...v, amount: 0 }), fields: ["amount"] },
  { op, rule: "a negative amount", body: (v) => ({ ...v, amount: -5 }), fields: ["amount"] },
  { op, rule: "a fractional amount", body: (v) => ({ ...v, amount: 10.5 }), fields: ["amount"] },
  { op, rule: "a string amount", body: (v) => ({ ...v, amount: "100" }), fields: ["amount"] },
  { op, rule: "a missing amount", body: ({ amount: _, ...v }) => v, fields: ["amount"] },
  { op, rule: "a missing currency", body: ({ currency: _, ...v }) => v, fields: ["currency"] },
  {
    op,
    rule: "a malformed currency code",
    body: (v) => ({ ...v, currency: { code: "usd" } }),
    fields: ["currency.code"],
  },
  {
    op,
    rule: "a missing merchant.descriptor",
    body: (v) => ({ ...v, merchant: { mcc: "5814" } }),
    fields: ["merchant.descriptor"],
  },
  {
    op,
    rule: "an empty merchant.descriptor",
    body: (v) => ({ ...v, merchant: { descriptor: "" } }),
    fields: ["merchant.descriptor"],
  },
  {
    op,
    rule: "an mcc that is not 4 digits",
    body: (v) => ({ ...v, merchant: { ...SHOP, mcc: "58a4" } }),
    fields: ["merchant.mcc"],
  },
  {
    op,
    rule: "a country that is not ISO alpha-2",
    body: (v) => ({ ...v, merchant: { ...SHOP, country: "XX" } }),
    fields: ["merchant.country"],
  },
  {
    op,
    rule: "a three-letter country",
    body: (v) => ({ ...v, merchant: { ...SHOP, country: "USA" } }),
    fields: ["merchant.country"],
  },
  { op, rule: "an unknown field", body: (v) => ({ ...v, tip: 100 }), fields: ["tip"] },
  {
    op,
    rule: "an unknown merchant field",
    body: (v) => ({ ...v, merchant: { ...SHOP, zip: "60601" } }),
    fields: ["merchant.zip"],
  },
  {
    op,
    rule: "two invalid fields, both reported",
    body: (v) => ({ ...v, amount: 0, merchant: { ...SHOP, mcc: "1" } }),
    fields: ["amount", "merchant.mcc"],
  },
]);

const badInputs: BadInput[] = [
  ...openingCases,
  { op: "balance_inquiry", rule: "a missing merchant", body: () => ({}), fields: ["merchant"] },
  {
    op: "balance_inquiry",
    rule: "an amount (not a field of the inquiry)",
    body: (v) => ({ ...v, amount: 100 }),
    fields: ["amount"],
  },
  {
    op: "balance_inquiry",
    rule: "a bad mcc",
    body: () => ({ merchant: { ...SHOP, mcc: "12345" } }),
    fields: ["merchant.mcc"],
  },
  { op: "clearing", rule: "a negative amount", body: (v) => ({ ...v, amount: -1 }), fields: ["amount"] },
  { op: "clearing", rule: "a missing amount", body: ({ amount: _, ...v }) => v, fields: ["amount"] },
  {
    op: "clearing",
    rule: "a missing cardTransactionId",
    body: ({ cardTransactionId: _, ...v }) => v,
    fields: ["cardTransactionId"],
  },
  {
    op: "clearing",
    rule: "effectiveAt in the future",
    body: (v) => ({ ...v, effectiveAt: FUTURE() }),
    fields: ["effectiveAt"],
  },
  {
    op: "clearing",
    rule: "effectiveAt older than the settlement lag",
    body: (v) => ({ ...v, effectiveAt: BEFORE_LAG() }),
    fields: ["effectiveAt"],
  },
  {
    op: "clearing",
    rule: "effectiveAt without an offset",
    body: (v) => ({ ...v, effectiveAt: "2026-01-01T00:00:00" }),
    fields: ["effectiveAt"],
  },
  { op: "clearing", rule: "an unknown field", body: (v) => ({ ...v, fee: 0 }), fields: ["fee"] },
  { op: "return", rule: "amount 0", body: (v) => ({ ...v, amount: 0 }), fields: ["amount"] },
  {
    op: "return",
    rule: "effectiveAt in the future",
    body: (v) => ({ ...v, effectiveAt: FUTURE() }),
    fields: ["effectiveAt"],
  },
  {
    op: "return",
    rule: "effectiveAt older than the settlement lag",
    body: (v) => ({ ...v, effectiveAt: BEFORE_LAG() }),
    fields: ["effectiveAt"],
  },
  { op: "return", rule: "an unknown field", body: (v) => ({ ...v, reason: "x" }), fields: ["reason"] },
  {
    op: "return_reversal",
    rule: "a missing cardTransactionId",
    body: () => ({}),
    fields: ["cardTransactionId"],
  },
  {
    op: "return_reversal",
    rule: "an amount (not a field of the reversal)",
    body: (v) => ({ ...v, amount: 100 }),
    fields: ["amount"],
  },
  { op: "authorization_advice", rule: "amount 0", body: (v) => ({ ...v, amount: 0 }), fields: ["amount"] },
  {
    op: "authorization_advice",
    rule: "a missing cardTransactionId",
    body: ({ cardTransactionId: _, ...v }) => v,
    fields: ["cardTransactionId"],
  },
];

describe("400 INVALID_INPUT (conventions §6.5, §1.7)", () => {
  test.each(badInputs)("$op: $rule -> 400 INVALID_INPUT on $fields", async ({ op, body, fields }) => {
    const before = await rowCount();
    const res = await simulate(client, cardId, op, body(validBody(op)));
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(Object.keys(res.body).sort()).toEqual(["code", "details", "reason"]);
    expect((res.body as ErrorBody).details?.errors.map((e) => e.field).sort()).toEqual([...fields].sort());
    for (const error of res.body.details?.errors ?? []) expect(error.message).toEqual(expect.any(String));
    expect(await rowCount()).toBe(before);
  });

  test.each(openingOps)(
    "%s: a currency that is not the card's -> 400 INVALID_INPUT on currency.code",
    async (op) => {
      const res = await simulate(client, cardId, op, { ...opening(100), currency: { code: "EUR" } });
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe("INVALID_INPUT");
      expect(res.body.details?.errors.map((e) => e.field)).toEqual(["currency.code"]);
    },
  );

  test("a body that is not JSON -> 400 INVALID_REQUEST_FORMAT", async () => {
    const res = await client.request<ErrorBody>(
      "POST",
      `/sandbox/cards/${cardId}/simulate/authorization`,
      undefined,
      {
        rawBody: "{not json",
        headers: { "content-type": "application/json" },
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_REQUEST_FORMAT");
  });

  test("effectiveAt within [now - settlement lag, now] is accepted and dates the change", async () => {
    const id = await authorize(client, cardId, 500);
    const effectiveAt = iso(Date.now() - DEFAULT_SETTLEMENT_LAG_MS + 3_600_000);
    await simulateOk(client, cardId, "clearing", { cardTransactionId: id, amount: 500, effectiveAt });
    const [change] = await server.db.query<{ effective_at: Date }>(
      "SELECT effective_at FROM balance_changes WHERE transaction_id = $1",
      [id],
    );
    expect(change?.effective_at.toISOString()).toBe(effectiveAt);
  });

  test("check order: a bad effectiveAt is 400 before the unknown card's 404 and before the row's 409", async () => {
    const unknownCard = await simulate(client, UNKNOWN_CARD, "clearing", {
      cardTransactionId: open,
      amount: 1,
      effectiveAt: FUTURE(),
    });
    expect([unknownCard.status, unknownCard.body.code]).toEqual([400, "INVALID_INPUT"]);
    const settledRow = await simulate(client, cardId, "clearing", {
      cardTransactionId: settled,
      amount: 1,
      effectiveAt: FUTURE(),
    });
    expect([settledRow.status, settledRow.body.code]).toEqual([400, "INVALID_INPUT"]);
    const returned = await simulate(client, cardId, "return", {
      cardTransactionId: open,
      amount: 1,
      effectiveAt: BEFORE_LAG(),
    });
    expect([returned.status, returned.body.code]).toEqual([400, "INVALID_INPUT"]);
  });
});

async function rowCount(): Promise<number> {
  const [row] = await server.db.query<{ n: number }>(
    "SELECT count(*)::int8 AS n FROM card_transactions WHERE platform_id = $1",
    [platformId],
  );
  return row?.n ?? 0;
}

describe("404 (conventions §1.3, §6.5)", () => {
  test.each(ops)("%s: an unknown, malformed or another platform's card -> 404 NOT_FOUND", async (op) => {
    const other = await cardPlatform(server);
    const { cardId: foreignCard } = await fundedCard(server, other.client, 0);
    for (const id of [
      UNKNOWN_CARD,
      "Card:not-a-uuid",
      "Customer:01900000-0000-7000-8000-0000000004d2",
      foreignCard,
    ]) {
      const res = await simulate(client, id, op, validBody(op));
      expect([res.status, res.body.code], `${op} ${id}`).toEqual([404, "NOT_FOUND"]);
    }
  });

  const rowOps: SimulationOp[] = ["clearing", "return", "return_reversal", "authorization_advice"];
  test.each(rowOps)(
    "%s: an unknown or malformed transaction id, another card's or another platform's -> 404 TRANSACTION_NOT_FOUND",
    async (op) => {
      const { cardId: otherCard } = await fundedCard(server, client, 10_000);
      const otherCardsRow = await authorize(client, otherCard, 100);
      const other = await cardPlatform(server);
      const foreign = await fundedCard(server, other.client, 10_000);
      const foreignRow = await authorize(other.client, foreign.cardId, 100);
      const ids = [
        UNKNOWN_TRANSACTION,
        "CardTransaction:nope",
        "Transaction:01900000-0000-7000-8000-0000000004d2",
        otherCardsRow,
        foreignRow,
      ];
      for (const id of ids) {
        const res = await simulate(client, cardId, op, { ...validBody(op), cardTransactionId: id });
        expect([res.status, res.body.code], `${op} ${id}`).toEqual([404, "TRANSACTION_NOT_FOUND"]);
      }
    },
  );
});

describe("409 CONFLICT on a failed precondition (conventions §6.5)", () => {
  interface Precondition {
    rule: string;
    /** Builds the state and returns the simulation to send. */
    arrange: (card: string) => Promise<{ op: SimulationOp; body: Record<string, unknown> }>;
  }
  const cases: Precondition[] = [
    {
      rule: "clearing a SETTLED row",
      arrange: async (card) => {
        const id = await authorize(client, card, 100);
        await clear(client, card, id, 100);
        return { op: "clearing", body: { cardTransactionId: id, amount: 10 } };
      },
    },
    {
      rule: "clearing a VOIDED row",
      arrange: async (card) => {
        const id = await authorize(client, card, 100);
        await clear(client, card, id, 0);
        return { op: "clearing", body: { cardTransactionId: id, amount: 0 } };
      },
    },
    {
      rule: "clearing an EXCEPTION row",
      arrange: async (card) => {
        const id = await authorize(client, card, 100, { ...SHOP, descriptor: "ODD 006" });
        await clear(client, card, id, 50);
        return { op: "clearing", body: { cardTransactionId: id, amount: 50 } };
      },
    },
    {
      rule: "clearing a refund row",
      arrange: async (card) => {
        const id = await authorize(client, card, 100);
        await clear(client, card, id, 100);
        const refund = await simulateOk(client, card, "return", { cardTransactionId: id, amount: 40 });
        return { op: "clearing", body: { cardTransactionId: refund, amount: 10 } };
      },
    },
    {
      rule: "return without a clearing",
      arrange: async (card) => ({
        op: "return",
        body: { cardTransactionId: await authorize(client, card, 100), amount: 10 },
      }),
    },
    {
      rule: "return above settled - refunded",
      arrange: async (card) => {
        const id = await authorize(client, card, 100);
        await clear(client, card, id, 100);
        await simulateOk(client, card, "return", { cardTransactionId: id, amount: 60 });
        return { op: "return", body: { cardTransactionId: id, amount: 41 } };
      },
    },
    {
      rule: "return of a refund row",
      arrange: async (card) => {
        const id = await authorize(client, card, 100);
        await clear(client, card, id, 100);
        const refund = await simulateOk(client, card, "return", { cardTransactionId: id, amount: 40 });
        return { op: "return", body: { cardTransactionId: refund, amount: 10 } };
      },
    },
    {
      rule: "return_reversal with a purchase id",
      arrange: async (card) => {
        const id = await authorize(client, card, 100);
        await clear(client, card, id, 100);
        await simulateOk(client, card, "return", { cardTransactionId: id, amount: 40 });
        return { op: "return_reversal", body: { cardTransactionId: id } };
      },
    },
    {
      rule: "return_reversal of a refund row already reversed",
      arrange: async (card) => {
        const id = await authorize(client, card, 100);
        await clear(client, card, id, 100);
        const refund = await simulateOk(client, card, "return", { cardTransactionId: id, amount: 40 });
        await simulateOk(client, card, "return_reversal", { cardTransactionId: refund });
        return { op: "return_reversal", body: { cardTransactionId: refund } };
      },
    },
    {
      rule: "authorization_advice on a VOIDED row",
      arrange: async (card) => {
        const id = await authorize(client, card, 100);
        await clear(client, card, id, 0);
        return { op: "authorization_advice", body: { cardTransactionId: id, amount: 200 } };
      },
    },
    {
      rule: "authorization_advice on a SETTLED row",
      arrange: async (card) => {
        const id = await authorize(client, card, 100);
        await clear(client, card, id, 100);
        return { op: "authorization_advice", body: { cardTransactionId: id, amount: 200 } };
      },
    },
    {
      rule: "authorization_advice on a DECLINED row",
      arrange: async (card) => ({
        op: "authorization_advice",
        body: {
          cardTransactionId: await authorize(client, card, 1, { ...SHOP, descriptor: "NO 009" }),
          amount: 2,
        },
      }),
    },
  ];

  test.each(cases)("$rule -> 409 CONFLICT, nothing changes", async ({ arrange }) => {
    const { cardId: card } = await fundedCard(server, client, 10_000);
    const { op, body } = await arrange(card);
    const target = String(body.cardTransactionId);
    const before = await cardTransaction(client, target);
    const changes = await server.db.query("SELECT id FROM balance_changes WHERE platform_id = $1", [
      server.platform.platformId,
    ]);
    const res = await simulate(client, card, op, body);
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
    expect(res.body.reason).toEqual(expect.any(String));
    expect(await cardTransaction(client, target)).toEqual(before);
    expect(
      await server.db.query("SELECT id FROM balance_changes WHERE platform_id = $1", [
        server.platform.platformId,
      ]),
    ).toHaveLength(changes.length);
  });
});

describe("403 FORBIDDEN (conventions §1.9)", () => {
  test.each(ops)("%s for a production platform -> 403 FORBIDDEN, before body validation", async (op) => {
    const production = client.as(await server.newPlatform("PRODUCTION"));
    const valid = await simulate(production, UNKNOWN_CARD, op, validBody(op));
    expect([valid.status, valid.body.code]).toEqual([403, "FORBIDDEN"]);
    const invalid = await simulate(production, UNKNOWN_CARD, op, { nonsense: true });
    expect([invalid.status, invalid.body.code]).toEqual([403, "FORBIDDEN"]);
  });
});
