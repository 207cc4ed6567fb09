import type { Executor, Tx } from "../core/db/db.js";

export interface TotpRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  customer_id: string;
  /** The RFC 6238 secret, sealed (purpose `sca-totp-secret`). */
  secret: string;
  status: "PENDING" | "ACTIVE";
  /** The last time step a code was accepted for (a code is never accepted twice). */
  last_step: string | number | null;
  /** SHA-256 (hex) of each recovery code not used yet. */
  recovery_codes: string[];
  expires_at: Date;
  confirmed_at: Date | null;
  deleted_at: Date | null;
  created_at: Date;
}

/** The customer's live TOTP factor of `status` (`lock`: FOR UPDATE, so two answers cannot share a step). */
export async function findTotp(
  db: Executor,
  customerId: string,
  status: TotpRow["status"],
  lock = false,
): Promise<TotpRow | undefined> {
  const [row] = await db.query<TotpRow>(
    `SELECT * FROM sca_totp_factors WHERE customer_id = $1 AND status = $2 AND deleted_at IS NULL
     ORDER BY created_at DESC, id DESC LIMIT 1${lock ? " FOR UPDATE" : ""}`,
    [customerId, status],
  );
  return row;
}

export async function insertTotp(tx: Tx, row: TotpRow): Promise<void> {
  await tx.query(
    `INSERT INTO sca_totp_factors (id, platform_id, customer_id, secret, status, last_step, recovery_codes,
       expires_at, confirmed_at, deleted_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11)`,
    [
      row.id,
      row.platform_id,
      row.customer_id,
      row.secret,
      row.status,
      row.last_step,
      JSON.stringify(row.recovery_codes),
      row.expires_at,
      row.confirmed_at,
      row.deleted_at,
      row.created_at,
    ],
  );
}

/** Ends the customer's pending enrolments (a new start replaces them). */
export async function dropPendingTotp(tx: Tx, customerId: string, now: Date): Promise<void> {
  await tx.query(
    "UPDATE sca_totp_factors SET deleted_at = $2 WHERE customer_id = $1 AND status = 'PENDING' AND deleted_at IS NULL",
    [customerId, now],
  );
}

export async function activateTotp(
  tx: Tx,
  id: string,
  fields: { lastStep: number; recoveryCodes: string[]; now: Date },
): Promise<void> {
  await tx.query(
    `UPDATE sca_totp_factors SET status = 'ACTIVE', last_step = $2, recovery_codes = $3::jsonb, confirmed_at = $4
     WHERE id = $1`,
    [id, fields.lastStep, JSON.stringify(fields.recoveryCodes), fields.now],
  );
}

export async function recordTotpUse(
  tx: Tx,
  id: string,
  fields: { lastStep: number | null; recoveryCodes: string[] },
): Promise<void> {
  await tx.query(
    "UPDATE sca_totp_factors SET last_step = COALESCE($2, last_step), recovery_codes = $3::jsonb WHERE id = $1",
    [id, fields.lastStep, JSON.stringify(fields.recoveryCodes)],
  );
}

/** Removes every TOTP factor of the customer (DELETE of the factor, or a two-factor reset). */
export async function deleteTotp(tx: Tx, customerId: string, now: Date): Promise<number> {
  const rows = await tx.query(
    "UPDATE sca_totp_factors SET deleted_at = $2 WHERE customer_id = $1 AND deleted_at IS NULL RETURNING id",
    [customerId, now],
  );
  return rows.length;
}
