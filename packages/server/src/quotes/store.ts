import type { Executor, Tx } from "../core/db/db.js";
import type { QuoteStatus } from "./schemas.js";

export interface QuoteRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  status: QuoteStatus;
  customer_id: string | null;
  source_account_id: string | null;
  destination_account_id: string | null;
  sending_currency: string;
  receiving_currency: string;
  locked_currency_side: "SENDING" | "RECEIVING";
  locked_currency_amount: number;
  total_sending_amount: number;
  total_receiving_amount: number;
  exchange_rate: number;
  fees_included: number;
  platform_fees_included: number;
  /** Reserved at creation; the transaction exists from execution on. */
  transaction_id: string;
  source: Record<string, unknown>;
  destination: Record<string, unknown>;
  /** Echoed request fields without a column: description, remittanceInformation, purposeOfPayment, platformFeeOverride. */
  details: Record<string, unknown>;
  created_at: Date;
  expires_at: Date;
  updated_at: Date;
}

const columns = [
  "id",
  "platform_id",
  "status",
  "customer_id",
  "source_account_id",
  "destination_account_id",
  "sending_currency",
  "receiving_currency",
  "locked_currency_side",
  "locked_currency_amount",
  "total_sending_amount",
  "total_receiving_amount",
  "exchange_rate",
  "fees_included",
  "platform_fees_included",
  "transaction_id",
  "source",
  "destination",
  "details",
  "created_at",
  "expires_at",
  "updated_at",
] as const;

export async function insertQuote(tx: Tx, row: QuoteRow): Promise<void> {
  await tx.query(
    `INSERT INTO quotes (${columns.join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
    columns.map((column) => row[column]),
  );
}

export async function findQuote(db: Executor, platformId: string, id: string): Promise<QuoteRow | undefined> {
  const [row] = await db.query<QuoteRow>("SELECT * FROM quotes WHERE platform_id = $1 AND id = $2", [
    platformId,
    id,
  ]);
  return row;
}

/** Locks the quote row: concurrent executions of one quote queue here, so it executes exactly once. */
export async function lockQuote(tx: Tx, platformId: string, id: string): Promise<QuoteRow | undefined> {
  const [row] = await tx.query<QuoteRow>(
    "SELECT * FROM quotes WHERE platform_id = $1 AND id = $2 FOR UPDATE",
    [platformId, id],
  );
  return row;
}

export async function updateQuoteStatus(
  tx: Tx,
  id: string,
  change: { status: QuoteStatus; transactionId?: string; now: Date },
): Promise<QuoteRow> {
  const [row] = await tx.query<QuoteRow>(
    `UPDATE quotes SET status = $2, transaction_id = COALESCE($3, transaction_id), updated_at = $4
     WHERE id = $1 RETURNING *`,
    [id, change.status, change.transactionId ?? null, change.now],
  );
  if (!row) throw new Error(`quote ${id} vanished while locked`);
  return row;
}
