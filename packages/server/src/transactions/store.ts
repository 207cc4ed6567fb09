import type { Executor, Tx } from "../core/db/db.js";
import { listPage, type PageRequest, type PageResult } from "../core/http/pagination.js";

export interface TransactionRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  type: "INCOMING" | "OUTGOING";
  status: string;
  account_id: string;
  customer_id: string | null;
  currency: string;
  sent_amount: number | null;
  received_amount: number | null;
  fees: number;
  platform_fees: number;
  quote_id: string | null;
  payment_rail: string | null;
  rail_selection_mode: string | null;
  failure_reason: string | null;
  pending_reason: string | null;
  description: string | null;
  reference: string | null;
  source: Record<string, unknown>;
  destination: Record<string, unknown>;
  /** Wire fields without a column of their own (counterpartyInformation, refund, remittance, …). */
  details: Record<string, unknown>;
  settled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type NewTransaction = Omit<TransactionRow, "platform_customer_id">;

const columns = [
  "id",
  "platform_id",
  "type",
  "status",
  "account_id",
  "customer_id",
  "currency",
  "sent_amount",
  "received_amount",
  "fees",
  "platform_fees",
  "quote_id",
  "payment_rail",
  "rail_selection_mode",
  "failure_reason",
  "pending_reason",
  "description",
  "reference",
  "source",
  "destination",
  "details",
  "settled_at",
  "created_at",
  "updated_at",
] as const;

export async function insertTransaction(tx: Tx, row: TransactionRow): Promise<void> {
  await tx.query(
    `INSERT INTO transactions (${columns.join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
    columns.map((column) => row[column]),
  );
}

/** Updates the mutable fields of a transaction (status and what goes with it). */
export async function updateTransaction(tx: Tx, row: TransactionRow): Promise<void> {
  await tx.query(
    `UPDATE transactions SET status = $2, failure_reason = $3, pending_reason = $4, details = $5, settled_at = $6,
       fees = $7, platform_fees = $8, updated_at = $9 WHERE id = $1`,
    [
      row.id,
      row.status,
      row.failure_reason,
      row.pending_reason,
      row.details,
      row.settled_at,
      row.fees,
      row.platform_fees,
      row.updated_at,
    ],
  );
}

const selectWithCustomer = `SELECT t.*, c.platform_customer_id FROM transactions t LEFT JOIN customers c ON c.id = t.customer_id`;

export async function findTransaction(db: Executor, platformId: string, id: string, lock = false) {
  const [row] = await db.query<TransactionRow & { platform_customer_id: string | null }>(
    lock
      ? "SELECT t.*, NULL::text AS platform_customer_id FROM transactions t WHERE t.platform_id = $1 AND t.id = $2 FOR UPDATE"
      : `${selectWithCustomer} WHERE t.platform_id = $1 AND t.id = $2`,
    [platformId, id],
  );
  return row;
}

export interface TransactionFilters {
  /** Which rows: payment transactions, card transactions, or both (conventions §3.4). */
  kinds: "PAYMENT" | "CARD" | "ALL";
  customerId?: string | undefined;
  platformCustomerId?: string | undefined;
  accountIdentifier?: string | undefined;
  senderAccountIdentifier?: string | undefined;
  receiverAccountIdentifier?: string | undefined;
  status?: string | undefined;
  type?: "INCOMING" | "OUTGOING" | undefined;
  cardId?: string | undefined;
  reference?: string | undefined;
  startDate?: Date | undefined;
  endDate?: Date | undefined;
}

export interface TransactionRef {
  [column: string]: unknown;
  id: string;
  kind: "PAYMENT" | "CARD";
  created_at: Date;
}

// Payment and card transactions paged together by (created_at, id); pages are hydrated per kind.
// The sender and receiver of a payment are its source and destination accounts; a card purchase is sent
// by the card's account and a card refund received by it (the merchant has no account id).
const paymentRefs =
  "SELECT id, platform_id, 'PAYMENT' AS kind, type, status, account_id, customer_id, reference, NULL AS card_id, source->>'accountId' AS sender_account_id, destination->>'accountId' AS receiver_account_id, created_at FROM transactions";
const cardRefs =
  "SELECT id, platform_id, 'CARD' AS kind, 'CARD' AS type, status, account_id, customer_id, NULL AS reference, card_id, CASE WHEN direction = 'DEBIT' THEN account_id END AS sender_account_id, CASE WHEN direction = 'CREDIT' THEN account_id END AS receiver_account_id, created_at FROM card_transactions";

/** One page of transaction references matching the filters, newest first unless `asc`. */
export function listTransactionRefs(
  db: Executor,
  platformId: string,
  filters: TransactionFilters,
  page: PageRequest,
): Promise<PageResult<TransactionRef>> {
  const sources = { PAYMENT: [paymentRefs], CARD: [cardRefs], ALL: [paymentRefs, cardRefs] }[filters.kinds];
  const where = ["platform_id = $1"];
  const params: unknown[] = [platformId];
  const add = (sql: (n: number) => string, value: unknown) => {
    if (value === undefined) return;
    params.push(value);
    where.push(sql(params.length));
  };
  add((n) => `customer_id = $${n}`, filters.customerId);
  add(
    (n) =>
      `customer_id IN (SELECT id FROM customers WHERE platform_id = $1 AND platform_customer_id = $${n})`,
    filters.platformCustomerId,
  );
  add((n) => `account_id = $${n}`, filters.accountIdentifier);
  add((n) => `sender_account_id = $${n}`, filters.senderAccountIdentifier);
  add((n) => `receiver_account_id = $${n}`, filters.receiverAccountIdentifier);
  add((n) => `status = $${n}`, filters.status);
  add((n) => `type = $${n}`, filters.type);
  add((n) => `card_id = $${n}`, filters.cardId);
  add((n) => `reference = $${n}`, filters.reference);
  add((n) => `created_at >= $${n}`, filters.startDate);
  add((n) => `created_at <= $${n}`, filters.endDate);
  return listPage<TransactionRef>({
    executor: db,
    table: `(${sources.join(" UNION ALL ")}) AS rows`,
    where,
    params,
    scope: `transactions|${platformId}|${JSON.stringify(filters)}`,
    ...page,
  });
}

/** Payment transactions by id, with the customer's platformCustomerId. */
export async function findTransactions(
  db: Executor,
  ids: string[],
): Promise<(TransactionRow & { platform_customer_id: string | null })[]> {
  if (ids.length === 0) return [];
  return db.query(`${selectWithCustomer} WHERE t.id = ANY($1)`, [ids]);
}

/** Removes a row that is about to be re-created under the same id (an approved agent payment). */
export async function deleteTransaction(tx: Tx, id: string): Promise<void> {
  await tx.query("DELETE FROM transactions WHERE id = $1", [id]);
}
