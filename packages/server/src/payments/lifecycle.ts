import type { Tx } from "../core/db/db.js";
import type { QuoteRow } from "../quotes/store.js";
import { enqueueEventsAtCommit } from "../webhooks/commit-batch.js";
import { type EventType, enqueueUnscheduledEvent, type NewEvent } from "../webhooks/outbox.js";
import { insertTransactions, type MutableColumns, type TransactionRow, updateTransaction } from "./store.js";
import { toTransaction } from "./wire.js";

type Direction = TransactionRow["type"];
const family = (type: Direction) => (type === "INCOMING" ? "INCOMING_PAYMENT" : "OUTGOING_PAYMENT");

/** The states a payment may start in, per direction; the event it starts with is `<family>.<status>`. */
export const initialStates: Record<Direction, readonly string[]> = {
  OUTGOING: ["PENDING", "PROCESSING", "COMPLETED", "FAILED"],
  INCOMING: ["PENDING", "COMPLETED", "FAILED"],
};

/**
 * Every allowed change of a payment's status, per direction, with the one event it fires. Anything not
 * listed is refused: callers check the state they expect (under the row lock) and answer their own 409.
 */
export const transitions: Record<Direction, Record<string, Record<string, EventType>>> = {
  OUTGOING: {
    // An agent payment awaiting platform approval: executed in place, expired with its quote, or cancelled.
    PENDING: {
      PROCESSING: "OUTGOING_PAYMENT.PROCESSING",
      COMPLETED: "OUTGOING_PAYMENT.COMPLETED",
      EXPIRED: "OUTGOING_PAYMENT.EXPIRED",
      FAILED: "OUTGOING_PAYMENT.FAILED",
    },
    PROCESSING: { COMPLETED: "OUTGOING_PAYMENT.COMPLETED", FAILED: "OUTGOING_PAYMENT.FAILED" },
    // A settled payout returned by the receiving bank.
    COMPLETED: { FAILED: "OUTGOING_PAYMENT.FAILED" },
  },
  INCOMING: {
    // A stablecoin burn's credit, once the provider settles it.
    PENDING: { COMPLETED: "INCOMING_PAYMENT.COMPLETED", FAILED: "INCOMING_PAYMENT.FAILED" },
    // An ACH return takes the money back; a completed refund sends it back (its event carries the refund).
    COMPLETED: { FAILED: "INCOMING_PAYMENT.FAILED", REFUNDED: "INCOMING_PAYMENT.REFUND_COMPLETED" },
  },
};

/** The event of a transition, or undefined when it is not allowed. */
export function transitionEvent(type: Direction, from: string, to: string): EventType | undefined {
  return transitions[type][from]?.[to];
}

const startEvent = (row: TransactionRow): NewEvent => {
  if (!initialStates[row.type].includes(row.status))
    throw new Error(`a ${row.type} payment cannot start ${row.status}`);
  return {
    platformId: row.platform_id,
    type: `${family(row.type)}.${row.status}` as EventType,
    data: toTransaction(row),
    now: row.updated_at,
  };
};

/**
 * Inserts new payments (an internal transfer's two sides together) and fires each one's start event
 * (`<INCOMING|OUTGOING>_PAYMENT.<status>`), in the caller's transaction. Rows of one platform and instant.
 */
export async function insertPayments(tx: Tx, rows: TransactionRow[]): Promise<void> {
  const events = rows.map(startEvent);
  await insertTransactions(tx, rows);
  await enqueueEventsAtCommit(tx, events);
}

/** Inserts one new payment and fires its start event. */
export const insertPayment = (tx: Tx, row: TransactionRow) => insertPayments(tx, [row]);

/**
 * Inserts one new payment whose start event the caller delivers itself because the platform's answer
 * decides it (webhooks/answered-delivery.ts). Answers that event's delivery.
 */
export async function insertPaymentAwaitingAnswer(tx: Tx, row: TransactionRow) {
  await insertTransactions(tx, [row]);
  return enqueueUnscheduledEvent(tx, startEvent(row));
}

export type PaymentPatch = Partial<Omit<MutableColumns, "status" | "updated_at">>;

/**
 * Moves a payment (its row locked by the caller) to `to`, writing `patch` with it, and fires the
 * transition's one event, in the caller's transaction. A transition the table does not allow throws:
 * callers check the state first and answer their own error. `eventData` replaces the transaction as
 * the event's payload (a refund's events carry the refund object).
 */
export async function transitionPayment(
  tx: Tx,
  row: TransactionRow,
  to: string,
  patch: PaymentPatch & { now: Date },
  eventData?: unknown,
): Promise<TransactionRow> {
  const type = transitionEvent(row.type, row.status, to);
  if (type === undefined)
    throw new Error(`payment ${row.id}: ${row.type} ${row.status} → ${to} is not allowed`);
  const { now, ...columns } = patch;
  const { platform_customer_id: _, ...stored } = row as TransactionRow & { platform_customer_id?: unknown };
  const next: TransactionRow = { ...stored, ...columns, status: to, updated_at: now };
  await updateTransaction(tx, next);
  await enqueueEventsAtCommit(tx, [
    { platformId: row.platform_id, type, data: eventData ?? toTransaction(next), now },
  ]);
  return next;
}

/**
 * An approved agent payment's PENDING row moves in place to the state its execution wrote `executed` in
 * (COMPLETED or PROCESSING), taking the executed row's fields; its id and creation time stay.
 */
export function completePending(
  tx: Tx,
  pending: TransactionRow,
  executed: TransactionRow,
): Promise<TransactionRow> {
  const { id: _id, created_at: _created, status, updated_at: now, ...patch } = executed;
  return transitionPayment(tx, pending, status, { ...patch, now });
}

/**
 * A refund's progress on a payment whose status it does not change (PENDING, and a refund that
 * FAILED): the row's `details.refund` and `<family>.REFUND_<status>` with `data`.
 */
export async function recordRefund(
  tx: Tx,
  row: TransactionRow,
  refund: { status: "PENDING" | "COMPLETED" | "FAILED" },
  data: unknown,
  now: Date,
): Promise<TransactionRow> {
  const next: TransactionRow = { ...row, details: { ...row.details, refund }, updated_at: now };
  await updateTransaction(tx, next);
  const type = `${family(row.type)}.REFUND_${refund.status}` as EventType;
  await enqueueEventsAtCommit(tx, [{ platformId: row.platform_id, type, data, now }]);
  return next;
}

/** A change of a payment's details that changes nothing of its state (a receipt delivered): no event. */
export async function recordDetails(
  tx: Tx,
  row: TransactionRow,
  details: Record<string, unknown>,
  now: Date,
): Promise<TransactionRow> {
  const next: TransactionRow = { ...row, details, updated_at: now };
  await updateTransaction(tx, next);
  return next;
}

/** The quote's echoed fields a transaction carries: exchangeRate, remittanceInformation, purposeOfPayment. */
export function echoedDetails(quote: QuoteRow): Record<string, unknown> {
  const { remittanceInformation, purposeOfPayment } = quote.details;
  const echoed = { exchangeRate: quote.exchange_rate, remittanceInformation, purposeOfPayment };
  return Object.fromEntries(Object.entries(echoed).filter(([, value]) => value !== undefined));
}

/**
 * The sender's OUTGOING transaction of a quote, under the quote's reserved transaction id, in `status`.
 * The row has one currency (the sender's), so across currencies receivedAmount is left out of it.
 */
export function paymentFromQuote(
  quote: QuoteRow,
  status: string,
  fields: Partial<TransactionRow> & { now: Date },
): TransactionRow {
  const { now, ...rest } = fields;
  const { description } = quote.details;
  return {
    id: quote.transaction_id,
    platform_id: quote.platform_id,
    type: "OUTGOING",
    status,
    account_id: quote.source_account_id as string,
    customer_id: quote.customer_id,
    currency: quote.sending_currency,
    sent_amount: quote.total_sending_amount,
    received_amount:
      quote.sending_currency === quote.receiving_currency ? quote.total_receiving_amount : null,
    fees: quote.fees_included,
    platform_fees: quote.platform_fees_included,
    quote_id: quote.id,
    payment_rail: null,
    rail_selection_mode: null,
    failure_reason: null,
    pending_reason: null,
    description: typeof description === "string" ? description : null,
    reference: null,
    source: { sourceType: "ACCOUNT", accountId: quote.source_account_id },
    destination: { destinationType: "ACCOUNT", accountId: quote.destination_account_id },
    details: echoedDetails(quote),
    settled_at: null,
    created_at: now,
    updated_at: now,
    ...rest,
  };
}
