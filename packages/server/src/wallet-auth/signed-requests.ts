import type { Executor, Tx } from "../core/db/db.js";

export type SignedAction =
  | "ADD_CREDENTIAL"
  | "REVOKE_CREDENTIAL"
  | "VERIFY_OTP"
  | "REFRESH_SESSION"
  | "REVOKE_SESSION"
  | "EXPORT_WALLET"
  | "UPDATE_INTERNAL_ACCOUNT"
  | "UPDATE_CUSTOMER"
  | "CREATE_DELEGATED_KEY"
  | "PASSKEY_AUTH";

export interface SignedRequestRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  account_id: string;
  action: SignedAction;
  method: string;
  path: string;
  body_sha256: string;
  payload_to_sign: string;
  /** Inputs fixed at the first call; `body` is the canonical request body the operation runs on. */
  context: Record<string, unknown>;
  /** COMPLETED: settled by the reconciler, result not yet delivered; ANSWERED: the client got its answer. */
  state: "ISSUED" | "PROCESSING" | "COMPLETED" | "ANSWERED";
  stamp_sha256: string | null;
  ready_at: Date | null;
  result_status: number | null;
  result_body: string | null;
  expires_at: Date;
  completed_at: Date | null;
  created_at: Date;
}

export async function insertSignedRequest(tx: Tx, row: SignedRequestRow): Promise<void> {
  await tx.query(
    `INSERT INTO signed_requests (id, platform_id, account_id, action, method, path, body_sha256, payload_to_sign,
       context, state, stamp_sha256, ready_at, result_status, result_body, expires_at, completed_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13, $14, $15, $16, $17)`,
    [
      row.id,
      row.platform_id,
      row.account_id,
      row.action,
      row.method,
      row.path,
      row.body_sha256,
      row.payload_to_sign,
      JSON.stringify(row.context),
      row.state,
      row.stamp_sha256,
      row.ready_at,
      row.result_status,
      row.result_body,
      row.expires_at,
      row.completed_at,
      row.created_at,
    ],
  );
}

export async function findSignedRequest(
  db: Executor,
  platformId: string,
  id: string,
  lock = false,
): Promise<SignedRequestRow | undefined> {
  const [row] = await db.query<SignedRequestRow>(
    `SELECT * FROM signed_requests WHERE platform_id = $1 AND id = $2${lock ? " FOR UPDATE" : ""}`,
    [platformId, id],
  );
  return row;
}

export async function markProcessing(tx: Tx, id: string, stampSha256: string, readyAt: Date): Promise<void> {
  await tx.query(
    "UPDATE signed_requests SET state = 'PROCESSING', stamp_sha256 = $2, ready_at = $3 WHERE id = $1",
    [id, stampSha256, readyAt],
  );
}

/** Records the terminal result; `body` null when it is not kept (delivered at once, or a wallet export). */
export async function markCompleted(
  tx: Tx,
  id: string,
  result: {
    state: "COMPLETED" | "ANSWERED";
    status: number;
    body: string | null;
    stampSha256: string | null;
  },
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE signed_requests SET state = $2, result_status = $3, result_body = $4,
       stamp_sha256 = COALESCE(stamp_sha256, $5), completed_at = $6 WHERE id = $1`,
    [id, result.state, result.status, result.body, result.stampSha256, now],
  );
}

/** The stored result was handed to the identical request that was answered PROCESSING: it is spent. */
export async function markAnswered(tx: Tx, id: string): Promise<void> {
  await tx.query("UPDATE signed_requests SET state = 'ANSWERED', result_body = NULL WHERE id = $1", [id]);
}
