import type { Executor, Tx } from "../core/db/db.js";

export interface InvitationRow {
  [column: string]: unknown;
  code: string;
  platform_id: string;
  url: string;
  inviter_customer_id: string;
  inviter_uma: string;
  invitee_uma: string | null;
  amount_to_send: number | null;
  status: "PENDING" | "CLAIMED" | "CANCELLED";
  expires_at: Date | null;
  claimed_at: Date | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export async function insertInvitation(tx: Tx, row: InvitationRow): Promise<void> {
  await tx.query(
    `INSERT INTO invitations (code, platform_id, url, inviter_customer_id, inviter_uma, invitee_uma, amount_to_send,
       status, expires_at, claimed_at, cancelled_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      row.code,
      row.platform_id,
      row.url,
      row.inviter_customer_id,
      row.inviter_uma,
      row.invitee_uma,
      row.amount_to_send,
      row.status,
      row.expires_at,
      row.claimed_at,
      row.cancelled_at,
      row.created_at,
      row.updated_at,
    ],
  );
}

/** An invitation of the platform; `lock` takes its row lock (claim and cancel serialize on it). */
export async function findInvitation(
  db: Executor,
  platformId: string,
  code: string,
  lock = false,
): Promise<InvitationRow | undefined> {
  const [row] = await db.query<InvitationRow>(
    `SELECT * FROM invitations WHERE platform_id = $1 AND code = $2${lock ? " FOR UPDATE" : ""}`,
    [platformId, code],
  );
  return row;
}

export async function markClaimed(
  tx: Tx,
  code: string,
  inviteeUma: string,
  now: Date,
): Promise<InvitationRow> {
  const [row] = await tx.query<InvitationRow>(
    `UPDATE invitations SET status = 'CLAIMED', invitee_uma = $2, claimed_at = $3, updated_at = $3
     WHERE code = $1 RETURNING *`,
    [code, inviteeUma, now],
  );
  if (!row) throw new Error(`invitation ${code} vanished`);
  return row;
}

export async function markCancelled(tx: Tx, code: string, now: Date): Promise<InvitationRow> {
  const [row] = await tx.query<InvitationRow>(
    `UPDATE invitations SET status = 'CANCELLED', cancelled_at = $2, updated_at = $2 WHERE code = $1 RETURNING *`,
    [code, now],
  );
  if (!row) throw new Error(`invitation ${code} vanished`);
  return row;
}

/** The platform's customer holding this UMA address (deleted ones included), if any. */
export async function findCustomerByUma(db: Executor, platformId: string, umaAddress: string) {
  const [row] = await db.query<{ id: string; is_deleted: boolean }>(
    "SELECT id, is_deleted FROM customers WHERE platform_id = $1 AND uma_address = $2",
    [platformId, umaAddress],
  );
  return row;
}
