import type { Executor, Tx } from "../core/db/db.js";

export interface OtpChallengeRow {
  [column: string]: unknown;
  id: string;
  auth_method_id: string;
  /** The HPKE target private key, sealed (core/secrets, purpose `otp-target-key`); never logged, never returned. */
  target_private_key: string;
  target_public_key: string;
  /** The code's HMAC key, sealed (purpose `otp-code-key`), and HMAC-SHA256 of the code under it (hex). */
  code_key: string | null;
  code_hmac: string | null;
  failed_attempts: number;
  state: "OPEN" | "USED" | "VOID";
  expires_at: Date;
  created_at: Date;
}

export async function insertOtpChallenge(tx: Tx, row: OtpChallengeRow): Promise<void> {
  await tx.query(
    `INSERT INTO otp_challenges (id, auth_method_id, target_private_key, target_public_key, code_key,
       code_hmac, failed_attempts, state, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      row.id,
      row.auth_method_id,
      row.target_private_key,
      row.target_public_key,
      row.code_key,
      row.code_hmac,
      row.failed_attempts,
      row.state,
      row.expires_at,
      row.created_at,
    ],
  );
}

/** The credential's outstanding challenge (at most one: a new one voids the older ones). */
export async function openOtpChallenge(tx: Tx, authMethodId: string): Promise<OtpChallengeRow | undefined> {
  const [row] = await tx.query<OtpChallengeRow>(
    `SELECT * FROM otp_challenges WHERE auth_method_id = $1 AND state = 'OPEN'
     ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE`,
    [authMethodId],
  );
  return row;
}

/** Voids every open challenge of the credential (a new challenge, a revocation). */
export async function voidOtpChallenges(tx: Tx, authMethodId: string): Promise<void> {
  await tx.query("UPDATE otp_challenges SET state = 'VOID' WHERE auth_method_id = $1 AND state = 'OPEN'", [
    authMethodId,
  ]);
}

/** Counts one wrong code; the challenge is void once it reaches `maxWrong`. */
export async function countWrongCode(tx: Tx, id: string, maxWrong: number): Promise<void> {
  await tx.query(
    `UPDATE otp_challenges SET failed_attempts = failed_attempts + 1,
       state = CASE WHEN failed_attempts + 1 >= $2 THEN 'VOID' ELSE state END
     WHERE id = $1`,
    [id, maxWrong],
  );
}

export async function markOtpChallenge(tx: Tx, id: string, state: "USED" | "VOID"): Promise<void> {
  await tx.query("UPDATE otp_challenges SET state = $2 WHERE id = $1", [id, state]);
}

/**
 * Whether a live wallet of the platform other than `accountIds` already ties this e-mail (EMAIL_OTP) or
 * phone number (SMS_OTP) to a credential of `type`, compared case-insensitively.
 */
export async function contactTiedElsewhere(
  db: Executor,
  platformId: string,
  accountIds: string[],
  type: OtpType,
  contact: string,
): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM auth_methods WHERE platform_id = $1 AND type = $2 AND revoked_at IS NULL
       AND NOT (account_id = ANY($3)) AND lower(nickname) = lower($4) LIMIT 1`,
    [platformId, type, accountIds, contact],
  );
  return rows.length > 0;
}

export type OtpType = "EMAIL_OTP" | "SMS_OTP";

/** A live OTP credential: its nickname is the contact (e-mail or phone number) it is tied to. */
export interface OtpCredential {
  id: string;
  type: OtpType;
  accountId: string;
  nickname: string;
}

/** The live credentials of these OTP types on these accounts, locked, ordered by id (reads compare as lists). */
export async function lockOtpCredentials(
  tx: Tx,
  accountIds: string[],
  types: OtpType[],
): Promise<OtpCredential[]> {
  if (types.length === 0 || accountIds.length === 0) return [];
  const rows = await tx.query<{ id: string; type: OtpType; account_id: string; nickname: string }>(
    `SELECT id, type, account_id, nickname FROM auth_methods
     WHERE account_id = ANY($1) AND type = ANY($2) AND revoked_at IS NULL ORDER BY id FOR UPDATE`,
    [accountIds, types],
  );
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    accountId: row.account_id,
    nickname: row.nickname,
  }));
}

/** Ties an OTP credential to a new contact: its nickname follows the customer's e-mail or phone number. */
export async function setOtpContact(tx: Tx, authMethodId: string, contact: string, now: Date): Promise<void> {
  await tx.query("UPDATE auth_methods SET nickname = $2, updated_at = $3 WHERE id = $1", [
    authMethodId,
    contact,
    now,
  ]);
}
