import type { Executor, Tx } from "../core/db/db.js";

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

/** A row read with its customer's platformCustomerId, for the wire. */
export type TransactionView = TransactionRow & { platform_customer_id?: string | null };

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

/** Inserts rows in one statement (an internal transfer writes its two sides together). */
export async function insertTransactions(tx: Tx, rows: TransactionRow[]): Promise<void> {
  const params: unknown[] = [];
  const tuples = rows.map((row) => {
    const start = params.length;
    for (const column of columns) params.push(row[column]);
    return `(${columns.map((_, i) => `$${start + i + 1}`).join(", ")})`;
  });
  await tx.query(`INSERT INTO transactions (${columns.join(", ")}) VALUES ${tuples.join(", ")}`, params);
}

// What a transition may change; the id, owner, type, amounts' currency and quote never change.
const mutable = [
  "status",
  "sent_amount",
  "received_amount",
  "fees",
  "platform_fees",
  "payment_rail",
  "rail_selection_mode",
  "failure_reason",
  "pending_reason",
  "description",
  "source",
  "destination",
  "details",
  "settled_at",
  "updated_at",
] as const;

export type MutableColumns = Pick<TransactionRow, (typeof mutable)[number]>;

/** Writes a row's mutable columns. */
export async function updateTransaction(tx: Tx, row: TransactionRow): Promise<void> {
  await tx.query(
    `UPDATE transactions SET ${mutable.map((column, i) => `${column} = $${i + 2}`).join(", ")} WHERE id = $1`,
    [row.id, ...mutable.map((column) => row[column])],
  );
}

const selectWithCustomer = `SELECT t.*, c.platform_customer_id FROM transactions t LEFT JOIN customers c ON c.id = t.customer_id`;

/** A platform's transaction by id, with its customer's platformCustomerId. */
export async function findTransaction(
  db: Executor,
  platformId: string,
  id: string,
): Promise<TransactionView | undefined> {
  const [row] = await db.query<TransactionView>(
    `${selectWithCustomer} WHERE t.platform_id = $1 AND t.id = $2`,
    [platformId, id],
  );
  return row;
}

/** Locks a platform's transaction row: every change to a payment happens under this lock. */
export async function lockTransaction(
  tx: Tx,
  platformId: string,
  id: string,
): Promise<TransactionRow | undefined> {
  const [row] = await tx.query<TransactionRow>(
    "SELECT * FROM transactions WHERE platform_id = $1 AND id = $2 FOR UPDATE",
    [platformId, id],
  );
  return row;
}

/** Payment transactions by id, with the customer's platformCustomerId. */
export async function findTransactions(db: Executor, ids: string[]): Promise<TransactionView[]> {
  if (ids.length === 0) return [];
  return db.query(`${selectWithCustomer} WHERE t.id = ANY($1)`, [ids]);
}
