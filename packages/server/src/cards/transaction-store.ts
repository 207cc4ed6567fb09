import type { Executor, Tx } from "../core/db/db.js";
import type { CardDeclinedReason, CardTransactionStatus, Merchant } from "./schemas.js";

export interface CardTransactionRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  card_id: string;
  account_id: string;
  customer_id: string;
  issuer_transaction_token: string;
  status: CardTransactionStatus;
  direction: "DEBIT" | "CREDIT";
  merchant: Merchant;
  currency: string;
  authorized_amount: number;
  /** What is still held on account_id for this row. */
  hold_amount: number;
  settled_amount: number | null;
  refunded_amount: number | null;
  original_transaction_id: string | null;
  card_declined_reason: CardDeclinedReason | null;
  sandbox_outcome: string | null;
  pull_count: number;
  pull_total: number;
  pull_pending_count: number;
  settlement_count: number;
  settlement_total: number;
  refund_count: number;
  refund_total: number;
  authorized_at: Date;
  last_event_at: Date;
  created_at: Date;
  updated_at: Date;
}

const columns = [
  "id",
  "platform_id",
  "card_id",
  "account_id",
  "customer_id",
  "issuer_transaction_token",
  "status",
  "direction",
  "merchant",
  "currency",
  "authorized_amount",
  "hold_amount",
  "settled_amount",
  "refunded_amount",
  "original_transaction_id",
  "card_declined_reason",
  "sandbox_outcome",
  "pull_count",
  "pull_total",
  "pull_pending_count",
  "settlement_count",
  "settlement_total",
  "refund_count",
  "refund_total",
  "authorized_at",
  "last_event_at",
  "created_at",
  "updated_at",
] as const;

// Everything but the identity columns may change as the network reports on the row.
const mutable = columns.filter(
  (c) =>
    !["id", "platform_id", "card_id", "customer_id", "issuer_transaction_token", "created_at"].includes(c),
);

export async function insertCardTransaction(tx: Tx, row: CardTransactionRow): Promise<void> {
  await tx.query(
    `INSERT INTO card_transactions (${columns.join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
    columns.map((column) => row[column]),
  );
}

export async function updateCardTransaction(tx: Tx, row: CardTransactionRow): Promise<void> {
  await tx.query(
    `UPDATE card_transactions SET ${mutable.map((c, i) => `${c} = $${i + 2}`).join(", ")} WHERE id = $1`,
    [row.id, ...mutable.map((column) => row[column])],
  );
}

export async function findCardTransaction(
  db: Executor,
  platformId: string,
  id: string,
  lock = false,
): Promise<(CardTransactionRow & { platform_customer_id: string | null }) | undefined> {
  const [row] = await db.query<CardTransactionRow & { platform_customer_id: string | null }>(
    lock
      ? "SELECT t.*, NULL::text AS platform_customer_id FROM card_transactions t WHERE t.platform_id = $1 AND t.id = $2 FOR UPDATE"
      : `SELECT t.*, c.platform_customer_id FROM card_transactions t JOIN customers c ON c.id = t.customer_id
         WHERE t.platform_id = $1 AND t.id = $2`,
    [platformId, id],
  );
  return row;
}

/** Card transactions by id with the cardholder's platformCustomerId (for GET /transactions pages). */
export async function findCardTransactions(
  db: Executor,
  ids: string[],
): Promise<(CardTransactionRow & { platform_customer_id: string | null })[]> {
  if (ids.length === 0) return [];
  return db.query(
    `SELECT t.*, c.platform_customer_id FROM card_transactions t JOIN customers c ON c.id = t.customer_id
     WHERE t.id = ANY($1)`,
    [ids],
  );
}
