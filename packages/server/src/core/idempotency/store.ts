import type { Executor } from "../db/db.js";

export interface IdempotencyRow {
  [column: string]: unknown;
  platform_id: string;
  key: string;
  fingerprint: string;
  state: "IN_PROGRESS" | "DONE";
  response_status: number | null;
  response_body: string | null;
  response_content_type: string | null;
  expires_at: Date;
}

/**
 * Claims a key for this request: inserts it IN_PROGRESS, or takes over an expired record. Returns false
 * when a live record exists (the caller then replays it or answers 409).
 */
export async function claimKey(
  db: Executor,
  input: { platformId: string; key: string; fingerprint: string; now: Date; expiresAt: Date },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO idempotency_keys (platform_id, key, fingerprint, state, created_at, expires_at)
     VALUES ($1, $2, $3, 'IN_PROGRESS', $4, $5)
     ON CONFLICT (platform_id, key) DO UPDATE SET
       fingerprint = EXCLUDED.fingerprint, state = 'IN_PROGRESS', response_status = NULL, response_body = NULL,
       response_content_type = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
     WHERE idempotency_keys.expires_at <= $4
     RETURNING key`,
    [input.platformId, input.key, input.fingerprint, input.now, input.expiresAt],
  );
  return rows.length > 0;
}

export async function findKey(
  db: Executor,
  platformId: string,
  key: string,
): Promise<IdempotencyRow | undefined> {
  const [row] = await db.query<IdempotencyRow>(
    "SELECT * FROM idempotency_keys WHERE platform_id = $1 AND key = $2",
    [platformId, key],
  );
  return row;
}

export async function completeKey(
  db: Executor,
  platformId: string,
  key: string,
  response: { status: number; body: string; contentType: string },
): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET state = 'DONE', response_status = $3, response_body = $4, response_content_type = $5
     WHERE platform_id = $1 AND key = $2`,
    [platformId, key, response.status, response.body, response.contentType],
  );
}

export async function releaseKey(db: Executor, platformId: string, key: string): Promise<void> {
  await db.query(
    "DELETE FROM idempotency_keys WHERE platform_id = $1 AND key = $2 AND state = 'IN_PROGRESS'",
    [platformId, key],
  );
}
