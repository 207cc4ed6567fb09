import type { Tx } from "../core/db/db.js";
import { enqueueEventsAtCommit } from "../webhooks/commit-batch.js";
import { enqueueEvent } from "../webhooks/outbox.js";
import type { CardTransactionStatus } from "./schemas.js";
import type { CardRow } from "./store.js";
import { type CardTransactionRow, findCardTransaction } from "./transaction-store.js";
import { toCard, toCardTransaction } from "./wire.js";

/** Enqueues a CARD.* event carrying the post-change card (never a PAN, PIN or reveal URL). */
export async function cardEvent(
  tx: Tx,
  type: "STATUS_CHANGE" | "PIN_STATUS_CHANGE" | "FUNDING_SOURCE_CHANGE",
  card: CardRow,
  now: Date,
): Promise<void> {
  await enqueueEvent(tx, { platformId: card.platform_id, type: `CARD.${type}`, data: toCard(card), now });
}

/**
 * Enqueues `CARD_TRANSACTION.<status>` for a row as written in this transaction, in the same shape
 * `GET /transactions` returns for it, written with the transaction's other events at its commit. `row` is
 * the row exactly as written, with the cardholder's platformCustomerId (read with the card: no re-read).
 */
export async function cardTransactionEvent(
  tx: Tx,
  row: CardTransactionRow & { platform_customer_id: string | null },
  now: Date,
  /** The event type when it is not the row's status (a return re-fires SETTLED; an advice AUTHORIZED). */
  status?: CardTransactionStatus,
): Promise<void> {
  await enqueueEventsAtCommit(tx, [
    {
      platformId: row.platform_id,
      type: `CARD_TRANSACTION.${status ?? row.status}`,
      data: toCardTransaction(row),
      now,
    },
  ]);
}

/** cardTransactionEvent for a row whose cardholder's platformCustomerId the caller has not read. */
export async function rereadCardTransactionEvent(
  tx: Tx,
  row: { platform_id: string; id: string },
  now: Date,
  status?: CardTransactionStatus,
): Promise<void> {
  const saved = await findCardTransaction(tx, row.platform_id, row.id);
  if (!saved) throw new Error(`card transaction ${row.id} vanished inside its transaction`);
  await cardTransactionEvent(tx, saved, now, status);
}
