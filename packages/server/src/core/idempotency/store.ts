import type { Executor, Tx } from "../db/db.js";

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
  claim_token: string | null;
  claimed_at: Date | null;
  effect_at: Date | null;
}

/** One request's hold on a key; `token` is unique per claim. */
export interface Claim {
  platformId: string;
  key: string;
  token: string;
}

/**
 * Claims a key for this request: inserts it IN_PROGRESS, takes over an expired record, or takes over an
 * abandoned claim of the same request (IN_PROGRESS, no effect committed, claimed before `staleBefore`).
 * Returns false when a live record exists (the caller then replays it or answers 409).
 */
export async function claimKey(
  db: Executor,
  input: Claim & { fingerprint: string; now: Date; expiresAt: Date; claimedAt: Date; staleBefore: Date },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO idempotency_keys
       (platform_id, key, fingerprint, state, created_at, expires_at, claim_token, claimed_at)
     VALUES ($1, $2, $3, 'IN_PROGRESS', $4, $5, $6, $7)
     ON CONFLICT (platform_id, key) DO UPDATE SET
       fingerprint = EXCLUDED.fingerprint, state = 'IN_PROGRESS', response_status = NULL, response_body = NULL,
       response_content_type = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
       claim_token = EXCLUDED.claim_token, claimed_at = EXCLUDED.claimed_at, effect_at = NULL
     WHERE idempotency_keys.expires_at <= $4
        OR (idempotency_keys.state = 'IN_PROGRESS' AND idempotency_keys.effect_at IS NULL
            AND idempotency_keys.claimed_at <= $8 AND idempotency_keys.fingerprint = EXCLUDED.fingerprint)
     RETURNING key`,
    [
      input.platformId,
      input.key,
      input.fingerprint,
      input.now,
      input.expiresAt,
      input.token,
      input.claimedAt,
      input.staleBefore,
    ],
  );
  return rows.length > 0;
}

/**
 * First statement of each transaction of a claimed request: marks the claim's effect (once) and locks the
 * record, so the transaction's effects commit only while the request still holds the claim. False when a
 * retry took the claim over (or the record is gone): the caller must roll back.
 */
export async function markEffect(tx: Tx, claim: Claim, now: Date): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE idempotency_keys SET effect_at = coalesce(effect_at, $4)
     WHERE platform_id = $1 AND key = $2 AND claim_token = $3 RETURNING 1`,
    [claim.platformId, claim.key, claim.token, now],
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

/** Stores the response of the request holding the claim; a no-op for a holder that was taken over. */
export async function completeKey(
  db: Executor,
  claim: Claim,
  response: { status: number; body: string; contentType: string },
): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET state = 'DONE', response_status = $4, response_body = $5, response_content_type = $6
     WHERE platform_id = $1 AND key = $2 AND claim_token = $3`,
    [claim.platformId, claim.key, claim.token, response.status, response.body, response.contentType],
  );
}

/** Frees the key of the request holding the claim (an answer that is never stored). */
export async function releaseKey(db: Executor, claim: Claim): Promise<void> {
  await db.query(
    "DELETE FROM idempotency_keys WHERE platform_id = $1 AND key = $2 AND claim_token = $3 AND state = 'IN_PROGRESS'",
    [claim.platformId, claim.key, claim.token],
  );
}
