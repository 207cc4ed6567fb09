import type { Executor, Tx } from "../../core/db/db.js";

export type BulkJobStatus = "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED";

export interface BulkJobRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  token_id: string;
  status: BulkJobStatus;
  columns: string[];
  total: number;
  processed: number;
  successful: number;
  failed: number;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

export interface BulkRow {
  [column: string]: unknown;
  row_number: number;
  cells: string[] | null;
}

/** Inserts the job and its data rows (numbered from 1) in one statement each. */
export async function insertJob(tx: Tx, row: BulkJobRow, rows: string[][]): Promise<void> {
  await tx.query(
    `INSERT INTO customer_bulk_jobs (id, platform_id, token_id, status, columns, total, processed, successful, failed, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, 0, 0, 0, $7, $7)`,
    [
      row.id,
      row.platform_id,
      row.token_id,
      row.status,
      JSON.stringify(row.columns),
      row.total,
      row.created_at,
    ],
  );
  await tx.query(
    `INSERT INTO customer_bulk_rows (job_id, row_number, cells)
     SELECT $1, r.ordinality, r.value FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS r`,
    [row.id, JSON.stringify(rows)],
  );
}

export async function findJob(db: Executor, platformId: string, id: string, lock = false) {
  const [row] = await db.query<BulkJobRow>(
    `SELECT * FROM customer_bulk_jobs WHERE platform_id = $1 AND id = $2${lock ? " FOR UPDATE" : ""}`,
    [platformId, id],
  );
  return row;
}

/** The next rows to process, in file order, after the ones already processed. */
export function pendingRows(db: Executor, jobId: string, after: number, limit: number): Promise<BulkRow[]> {
  return db.query<BulkRow>(
    `SELECT row_number, cells FROM customer_bulk_rows WHERE job_id = $1 AND row_number > $2
     ORDER BY row_number LIMIT $3`,
    [jobId, after, limit],
  );
}

/** Records one processed row: its cells are dropped (the customer or the error now holds what matters). */
export async function recordRow(
  tx: Tx,
  job: BulkJobRow,
  rowNumber: number,
  error: Record<string, unknown> | null,
  now: Date,
): Promise<void> {
  await tx.query(
    "UPDATE customer_bulk_rows SET cells = NULL, error = $3::jsonb WHERE job_id = $1 AND row_number = $2",
    [job.id, rowNumber, error === null ? null : JSON.stringify(error)],
  );
  await tx.query(
    `UPDATE customer_bulk_jobs SET status = 'PROCESSING', processed = processed + 1,
       successful = successful + $2, failed = failed + $3, updated_at = $4 WHERE id = $1`,
    [job.id, error === null ? 1 : 0, error === null ? 0 : 1, now],
  );
}

export async function finishJob(tx: Tx, id: string, status: BulkJobStatus, now: Date): Promise<void> {
  await tx.query(
    "UPDATE customer_bulk_jobs SET status = $2, completed_at = $3, updated_at = $3 WHERE id = $1",
    [id, status, now],
  );
}

/** The error entries of the failed rows, in file order. */
export async function rowErrors(db: Executor, jobId: string): Promise<Record<string, unknown>[]> {
  const rows = await db.query<{ error: Record<string, unknown> }>(
    "SELECT error FROM customer_bulk_rows WHERE job_id = $1 AND error IS NOT NULL ORDER BY row_number",
    [jobId],
  );
  return rows.map((r) => r.error);
}
