import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { PageRequest, PageResult } from "../core/http/pagination.js";
import { parseId } from "../core/ids.js";
import { findPaymentOrThrow } from "../payments/lookup.js";
import { findTransactions } from "../payments/store.js";
import { type Transaction, toTransaction } from "../payments/wire.js";
import type { CardRows, CardTransactionWire } from "./card-rows.js";
import * as store from "./store.js";

export type AnyTransaction = Transaction | CardTransactionWire;

/** `GET /transactions/{id}`: a payment transaction, or a card transaction for a `CardTransaction:` id. */
export async function getTransaction(
  deps: Deps,
  caller: Caller,
  rawId: string,
  cards: CardRows,
): Promise<AnyTransaction> {
  const cardTransactionId = parseId("CardTransaction", rawId);
  if (cardTransactionId === null) return toTransaction(await findPaymentOrThrow(deps.db, caller, rawId));
  const row = await cards.find(deps.db, caller.platformId, cardTransactionId);
  if (!row) throw new ApiError("TRANSACTION_NOT_FOUND", { reason: `No transaction ${rawId}.` });
  return row;
}

export interface ListFilters
  extends Omit<store.TransactionFilters, "kinds" | "type" | "startDate" | "endDate"> {
  type?: "INCOMING" | "OUTGOING" | "CARD" | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
}

/** A date-time is the instant itself; a plain date (YYYY-MM-DD) is that UTC day's first or last millisecond. */
function boundary(value: string, timeOfDay: string): Date {
  return new Date(value.length === 10 ? `${value}${timeOfDay}` : value);
}

/**
 * `GET /transactions`: payment and card rows together, newest first. `status` applies to payment rows
 * only, so it is refused with `type=CARD` and otherwise leaves card rows out; `cardId` selects card rows.
 */
export async function listTransactions(
  deps: Deps,
  caller: Caller,
  filters: ListFilters,
  page: PageRequest,
  cards: CardRows,
): Promise<PageResult<AnyTransaction>> {
  if (filters.type === "CARD" && filters.status !== undefined) {
    throw new ApiError("INVALID_INPUT", {
      reason: "status applies to payment transactions only and cannot be combined with type=CARD.",
      details: { errors: [{ field: "status", message: "cannot be combined with type=CARD" }] },
    });
  }
  const { startDate, endDate, type, ...rest } = filters;
  const paymentOnly =
    (type !== undefined && type !== "CARD") || rest.status !== undefined || rest.reference !== undefined;
  const cardOnly = type === "CARD" || rest.cardId !== undefined;
  if (paymentOnly && cardOnly) return { data: [], hasMore: false, totalCount: 0 };
  const result = await store.listTransactionRefs(
    deps.db,
    caller.platformId,
    {
      ...rest,
      kinds: paymentOnly ? "PAYMENT" : cardOnly ? "CARD" : "ALL",
      type: type === "CARD" ? undefined : type,
      startDate: startDate === undefined ? undefined : boundary(startDate, "T00:00:00.000Z"),
      endDate: endDate === undefined ? undefined : boundary(endDate, "T23:59:59.999Z"),
    },
    page,
    cards.refs,
  );
  const ids = (kind: "PAYMENT" | "CARD") => result.data.filter((r) => r.kind === kind).map((r) => r.id);
  const payments = new Map(
    (await findTransactions(deps.db, ids("PAYMENT"))).map((r) => [r.id, toTransaction(r)]),
  );
  const cardRows = new Map((await cards.findMany(deps.db, ids("CARD"))).map((r) => [r.id, r]));
  const data = result.data.flatMap((ref) => payments.get(ref.id) ?? cardRows.get(ref.id) ?? []);
  return { ...result, data };
}
