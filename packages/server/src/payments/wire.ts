import type { Static } from "typebox";
import { money } from "../core/money.js";
import type { Transaction as TransactionSchema } from "./schemas.js";
import type { TransactionView } from "./store.js";

export type Transaction = Static<typeof TransactionSchema>;

/** The wire Transaction (conventions §3.4): optional fields omitted when unset. */
export function toTransaction(row: TransactionView): Transaction {
  // `uma` holds a UMA payment's protocol facts (invoice, preimage, nonce): never on the wire.
  const { uma: _protocol, ...details } = row.details ?? {};
  const wire: Record<string, unknown> = {
    id: row.id,
    type: row.type,
    status: row.status,
    direction: row.type === "INCOMING" ? "CREDIT" : "DEBIT",
    source: row.source,
    destination: row.destination,
    ...details,
    fees: row.fees,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  const optional: Record<string, unknown> = {
    customerId: row.customer_id,
    platformCustomerId: row.platform_customer_id,
    sentAmount: row.sent_amount === null ? null : money(row.sent_amount, row.currency),
    receivedAmount: row.received_amount === null ? null : money(row.received_amount, row.currency),
    quoteId: row.quote_id,
    paymentRail: row.payment_rail,
    railSelectionMode: row.rail_selection_mode,
    failureReason: row.failure_reason,
    pendingReason: row.pending_reason,
    description: row.description,
    settledAt: row.settled_at?.toISOString() ?? null,
  };
  for (const [key, value] of Object.entries(optional))
    if (value !== null && value !== undefined) wire[key] = value;
  if (row.type === "OUTGOING") wire.platformFees = row.platform_fees;
  if (row.reference !== null) wire.reference = row.reference;
  return wire as Transaction;
}
