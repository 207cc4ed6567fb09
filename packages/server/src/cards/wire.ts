import { money } from "../core/money.js";
import type { Card, CardTransaction } from "./schemas.js";
import type { CardRow } from "./store.js";
import type { CardTransactionRow } from "./transaction-store.js";

/** The wire Card: no PAN, PIN or PIN hash ever leaves through it (it is also every CARD.* payload). */
export function toCard(row: CardRow): Card {
  return {
    id: row.id,
    cardholderId: row.cardholder_id,
    platformCardId: row.platform_card_id,
    status: row.status,
    statusReason: row.status_reason,
    pinStatus: row.pin_status,
    cardCapabilities: { supportsDigitalWalletTokenization: row.supports_digital_wallet_tokenization },
    brand: row.brand,
    form: row.form,
    last4: row.last4,
    expMonth: row.exp_month,
    expYear: row.exp_year,
    fundingSources: row.funding_sources,
    maxSpendPerTransaction: row.max_spend_per_transaction,
    currency: row.currency,
    processorRef: row.processor_ref,
    issuerRef: row.issuer_ref,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The wire CardTransaction (conventions §6.3): the CARD row of GET /transactions and the event payload. */
export function toCardTransaction(
  row: CardTransactionRow & { platform_customer_id?: string | null },
): CardTransaction {
  const wire: CardTransaction = {
    id: row.id,
    type: "CARD",
    cardId: row.card_id,
    accountId: row.account_id,
    customerId: row.customer_id,
    issuerTransactionToken: row.issuer_transaction_token,
    status: row.status,
    direction: row.direction,
    merchant: row.merchant,
    authorizedAmount: money(row.authorized_amount, row.currency),
    pullSummary: { count: row.pull_count, totalAmount: row.pull_total },
    settlementSummary: { count: row.settlement_count, totalAmount: row.settlement_total },
    refundSummary: { count: row.refund_count, totalAmount: row.refund_total },
    authorizedAt: row.authorized_at.toISOString(),
    lastEventAt: row.last_event_at.toISOString(),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.platform_customer_id) wire.platformCustomerId = row.platform_customer_id;
  if (row.pull_pending_count > 0) wire.pullSummary.pendingCount = row.pull_pending_count;
  if (row.settled_amount !== null) wire.settledAmount = money(row.settled_amount, row.currency);
  if (row.refunded_amount !== null) wire.refundedAmount = money(row.refunded_amount, row.currency);
  if (row.original_transaction_id) wire.originalTransactionId = row.original_transaction_id;
  if (row.card_declined_reason) wire.cardDeclinedReason = row.card_declined_reason;
  return wire;
}
