import type { Executor, Tx } from "../../core/db/db.js";

export type ChallengeMethod = "WALLET_SIGNATURE" | "LIVENESS";
export type ChallengeState = "OPEN" | "VERIFIED" | "FAILED" | "ABANDONED" | "EXPIRED";

export interface ChallengeRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  external_account_id: string;
  method: ChallengeMethod;
  state: ChallengeState;
  message_to_sign: string | null;
  token_hash: string | null;
  expires_at: Date;
  completed_at: Date | null;
  /** LIVENESS: the hosted flow was completed; the provider's answer is pending. */
  submitted_at?: Date | null;
  created_at: Date;
}

export async function insertChallenge(tx: Tx, row: ChallengeRow): Promise<void> {
  await tx.query(
    `INSERT INTO ownership_challenges (id, platform_id, external_account_id, method, state, message_to_sign, token_hash,
       expires_at, completed_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      row.id,
      row.platform_id,
      row.external_account_id,
      row.method,
      row.state,
      row.message_to_sign,
      row.token_hash,
      row.expires_at,
      row.completed_at,
      row.created_at,
    ],
  );
}

/** Abandons the account's in-flight challenge (a new one replaces it). */
export async function abandonOpenChallenges(tx: Tx, accountId: string, now: Date): Promise<void> {
  await tx.query(
    "UPDATE ownership_challenges SET state = 'ABANDONED', completed_at = $2 WHERE external_account_id = $1 AND state = 'OPEN'",
    [accountId, now],
  );
}

export async function finishChallengeRow(
  tx: Tx,
  id: string,
  state: ChallengeState,
  now: Date,
): Promise<void> {
  await tx.query("UPDATE ownership_challenges SET state = $2, completed_at = $3 WHERE id = $1", [
    id,
    state,
    now,
  ]);
}

export async function openChallenge(db: Executor, accountId: string): Promise<ChallengeRow | undefined> {
  const [row] = await db.query<ChallengeRow>(
    "SELECT * FROM ownership_challenges WHERE external_account_id = $1 AND state = 'OPEN' ORDER BY created_at DESC LIMIT 1",
    [accountId],
  );
  return row;
}

/** The most recent challenge a newer one replaced, if any. */
export async function lastAbandoned(db: Executor, accountId: string): Promise<ChallengeRow | undefined> {
  const [row] = await db.query<ChallengeRow>(
    `SELECT * FROM ownership_challenges WHERE external_account_id = $1 AND state = 'ABANDONED'
     ORDER BY created_at DESC LIMIT 1`,
    [accountId],
  );
  return row;
}

/** Challenges issued for the account since `since`, oldest first (the re-issue rate limit). */
export async function issuedSince(db: Executor, accountId: string, since: Date): Promise<Date[]> {
  const rows = await db.query<{ created_at: Date }>(
    "SELECT created_at FROM ownership_challenges WHERE external_account_id = $1 AND created_at > $2 ORDER BY created_at",
    [accountId, since],
  );
  return rows.map((row) => row.created_at);
}

export async function findChallengeByToken(db: Executor, tokenHash: string, lock = false) {
  const [row] = await db.query<ChallengeRow>(
    `SELECT * FROM ownership_challenges WHERE token_hash = $1${lock ? " FOR UPDATE" : ""}`,
    [tokenHash],
  );
  return row;
}

export async function findChallenge(db: Executor, id: string, lock = false) {
  const [row] = await db.query<ChallengeRow>(
    `SELECT * FROM ownership_challenges WHERE id = $1${lock ? " FOR UPDATE" : ""}`,
    [id],
  );
  return row;
}
