import type { Executor, Tx } from "../core/db/db.js";

export interface PasskeyRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  customer_id: string;
  nickname: string;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string[] | null;
  deleted_at: Date | null;
  created_at: Date;
}

/** The customer's live (not deleted) SCA passkey. */
export async function findLivePasskey(db: Executor, customerId: string): Promise<PasskeyRow | undefined> {
  const [row] = await db.query<PasskeyRow>(
    "SELECT * FROM sca_passkeys WHERE customer_id = $1 AND deleted_at IS NULL",
    [customerId],
  );
  return row;
}

export async function insertPasskey(tx: Tx, row: PasskeyRow): Promise<void> {
  await tx.query(
    `INSERT INTO sca_passkeys (id, platform_id, customer_id, nickname, credential_id, public_key, counter,
       transports, deleted_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10)`,
    [
      row.id,
      row.platform_id,
      row.customer_id,
      row.nickname,
      row.credential_id,
      row.public_key,
      row.counter,
      row.transports === null ? null : JSON.stringify(row.transports),
      row.deleted_at,
      row.created_at,
    ],
  );
}

export async function markPasskeyDeleted(tx: Tx, id: string, now: Date): Promise<void> {
  await tx.query("UPDATE sca_passkeys SET deleted_at = $2 WHERE id = $1", [id, now]);
}

export async function updatePasskeyCounter(tx: Tx, id: string, counter: number): Promise<void> {
  await tx.query("UPDATE sca_passkeys SET counter = $2 WHERE id = $1", [id, counter]);
}
