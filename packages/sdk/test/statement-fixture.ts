import type {
  AnyTransaction,
  BalanceChange,
  BalanceChangeWindow,
  CardTransaction,
  InternalAccount,
  Transaction,
} from "../src/index.js";
import { statementPeriod } from "../src/index.js";
import type { Answer, Responder } from "./peer.js";

export const USD = { code: "USD", name: "United States Dollar", symbol: "$", decimals: 2 };
export const ACCOUNT_ID = "InternalAccount:0199a0a0-0000-7000-8000-00000000a001";
export const OCTOBER = statementPeriod("2026-10");

export const account: InternalAccount = {
  id: ACCOUNT_ID,
  customerId: "Customer:0199a0a0-0000-7000-8000-00000000c001",
  type: "INTERNAL_FIAT",
  status: "ACTIVE",
  balance: { amount: 0, currency: USD },
  totalBalance: { amount: 0, currency: USD },
  fundingPaymentInstructions: [
    {
      instructionsNotes: "ACH",
      accountOrWalletInfo: {
        accountType: "USD_ACCOUNT",
        accountNumber: "000012345678",
        routingNumber: "123456780",
        bankName: "Bank",
        reference: "REF",
      },
    },
  ],
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

let serial = 0;
/** A balance change of `amount` (fee `fee`) on `day` of October 2026 (UTC noon). */
export function change(transactionId: string, amount: number, fee = 0, day = 2): BalanceChange {
  serial += 1;
  return {
    id: `BalanceChange:0199a0a0-0000-7000-8000-${String(serial).padStart(12, "0")}`,
    amount: { amount, currency: USD },
    fee: { amount: fee, currency: USD },
    transactionId,
    effectiveAt: `2026-10-${String(day).padStart(2, "0")}T12:00:00.000Z`,
  };
}

/** Splits changes into pages of `size`, each describing the same window. */
export function pages(changes: BalanceChange[], opening: number, size = 2): BalanceChangeWindow[] {
  const closing = opening + changes.reduce((sum, c) => sum + c.amount.amount, 0);
  const out: BalanceChangeWindow[] = [];
  for (let i = 0; i < Math.max(1, changes.length); i += size) {
    const data = changes.slice(i, i + size);
    const hasMore = i + size < changes.length;
    out.push({
      data,
      openingBalance: { amount: opening, currency: USD },
      closingBalance: { amount: closing, currency: USD },
      windowStart: OCTOBER.start,
      windowEnd: OCTOBER.end,
      hasMore,
      ...(hasMore ? { nextCursor: data.at(-1)?.id ?? "" } : {}),
      totalCount: changes.length,
      totalCountIsExact: true,
    });
  }
  return out;
}

export function payment(id: string, overrides: Partial<Transaction> = {}): Transaction {
  return {
    id,
    type: "INCOMING",
    status: "COMPLETED",
    direction: "CREDIT",
    source: { sourceType: "REALTIME_FUNDING", currency: "USD" },
    destination: { destinationType: "ACCOUNT", accountId: ACCOUNT_ID },
    fees: 0,
    createdAt: "2026-10-02T12:00:00.000Z",
    updatedAt: "2026-10-02T12:00:00.000Z",
    ...overrides,
  };
}

export function card(id: string, overrides: Partial<CardTransaction> = {}): CardTransaction {
  return {
    id,
    type: "CARD",
    cardId: "Card:0199a0a0-0000-7000-8000-00000000d001",
    accountId: ACCOUNT_ID,
    customerId: "Customer:0199a0a0-0000-7000-8000-00000000c001",
    issuerTransactionToken: `itt_${id.slice(-4)}`,
    status: "SETTLED",
    direction: "DEBIT",
    merchant: { descriptor: "Corner Cafe", mcc: "5814", country: "US", city: "Austin", state: "TX" },
    authorizedAmount: { amount: 450, currency: USD },
    pullSummary: { count: 1, totalAmount: 450 },
    settlementSummary: { count: 0, totalAmount: 0 },
    refundSummary: { count: 0, totalAmount: 0 },
    authorizedAt: "2026-10-03T12:00:00.000Z",
    lastEventAt: "2026-10-03T12:00:00.000Z",
    createdAt: "2026-10-03T12:00:00.000Z",
    updatedAt: "2026-10-03T12:00:00.000Z",
    ...overrides,
  };
}

export interface Fixture {
  windows: BalanceChangeWindow[];
  transactions: AnyTransaction[];
  /** Served to the first balance-changes requests, before the pages (e.g. 409s). */
  before?: Answer[];
}

/** Routes like the server: the account, the window pages by cursor, and transactions by id. */
export function statementResponder(fixture: Fixture): Responder {
  const before = [...(fixture.before ?? [])];
  return (request) => {
    const url = new URL(request.url, "http://peer");
    const path = decodeURIComponent(url.pathname.replace(/^\/2025-10-13/, ""));
    if (path === `/internal-accounts/${ACCOUNT_ID}`) return { status: 200, body: account };
    if (path === `/internal-accounts/${ACCOUNT_ID}/balance-changes`) {
      const early = before.shift();
      if (early) return early;
      const cursor = url.searchParams.get("cursor");
      const index = cursor === null ? 0 : fixture.windows.findIndex((w) => w.nextCursor === cursor) + 1;
      const page = fixture.windows[index];
      return page
        ? { status: 200, body: page }
        : { status: 400, body: { code: "INVALID_INPUT", reason: "cursor" } };
    }
    const transaction = fixture.transactions.find((t) => path === `/transactions/${t.id}`);
    if (transaction) return { status: 200, body: transaction };
    return { status: 404, body: { code: "TRANSACTION_NOT_FOUND", reason: `No ${path}.` } };
  };
}
