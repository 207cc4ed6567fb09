import type { Executor, Tx } from "../core/db/db.js";
import type { ExternalAccountRow } from "../external-accounts/store.js";
import type { QuoteRow } from "../quotes/store.js";

/** Stored factor names: `OTP` is the wire `SMS_OTP`. */
export type ScaFactor = "OTP" | "PASSKEY" | "TOTP";
export type ChallengePurpose =
  | "LOGIN"
  | "CONTACT_EMAIL"
  | "CONTACT_PHONE"
  | "UNTRUST_BENEFICIARY"
  | "PAYMENT"
  | "ENROLL_PASSKEY";

export interface ScaCustomerRow {
  [column: string]: unknown;
  customer_id: string;
  platform_id: string;
  failed_attempts: number;
  locked_until: Date | null;
  verified_email: string | null;
  email_verified_at: Date | null;
  verified_phone: string | null;
  phone_verified_at: Date | null;
  updated_at: Date;
}

export interface ChallengeRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  customer_id: string;
  purpose: ChallengePurpose;
  factor: ScaFactor;
  /** HMAC-SHA256 of the OTP code under `code_key` (sealed); see tables.ts. */
  code_hash: string | null;
  code_key: string | null;
  webauthn_challenge: string | null;
  subject_id: string | null;
  state: "OPEN" | "COMPLETED" | "FAILED" | "EXPIRED" | "ABANDONED";
  failed_attempts: number;
  expires_at: Date;
  completed_at: Date | null;
  created_at: Date;
}

export interface SessionRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  customer_id: string;
  factor: ScaFactor;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Date;
}

/** The customer's SCA state row, created on first use and locked for the caller's transaction. */
export async function lockScaCustomer(
  tx: Tx,
  platformId: string,
  customerId: string,
  now: Date,
): Promise<ScaCustomerRow> {
  await tx.query(
    `INSERT INTO sca_customers (customer_id, platform_id, failed_attempts, updated_at) VALUES ($1, $2, 0, $3)
     ON CONFLICT (customer_id) DO NOTHING`,
    [customerId, platformId, now],
  );
  const [row] = await tx.query<ScaCustomerRow>(
    "SELECT * FROM sca_customers WHERE customer_id = $1 FOR UPDATE",
    [customerId],
  );
  if (!row) throw new Error(`sca state of ${customerId} vanished`);
  return row;
}

export async function findScaCustomer(db: Executor, customerId: string) {
  const [row] = await db.query<ScaCustomerRow>("SELECT * FROM sca_customers WHERE customer_id = $1", [
    customerId,
  ]);
  return row;
}

export async function updateScaCustomer(tx: Tx, row: ScaCustomerRow): Promise<void> {
  await tx.query(
    `UPDATE sca_customers SET failed_attempts = $2, locked_until = $3, verified_email = $4, email_verified_at = $5,
       verified_phone = $6, phone_verified_at = $7, updated_at = $8 WHERE customer_id = $1`,
    [
      row.customer_id,
      row.failed_attempts,
      row.locked_until,
      row.verified_email,
      row.email_verified_at,
      row.verified_phone,
      row.phone_verified_at,
      row.updated_at,
    ],
  );
}

export async function insertChallenge(tx: Tx, row: ChallengeRow): Promise<void> {
  await tx.query(
    `INSERT INTO sca_challenges (id, platform_id, customer_id, purpose, factor, code_hash, webauthn_challenge,
       subject_id, state, failed_attempts, expires_at, completed_at, created_at, code_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      row.id,
      row.platform_id,
      row.customer_id,
      row.purpose,
      row.factor,
      row.code_hash,
      row.webauthn_challenge,
      row.subject_id,
      row.state,
      row.failed_attempts,
      row.expires_at,
      row.completed_at,
      row.created_at,
      row.code_key,
    ],
  );
}

/**
 * Open challenges of the same purpose (and subject) are abandoned when a new one is issued; without
 * `subjectId` (undefined), those of every subject.
 */
export async function abandonOpenChallenges(
  tx: Tx,
  customerId: string,
  purposes: ChallengePurpose[],
  subjectId?: string | null,
): Promise<void> {
  const subject = subjectId === undefined ? "" : " AND subject_id IS NOT DISTINCT FROM $3";
  await tx.query(
    `UPDATE sca_challenges SET state = 'ABANDONED'
     WHERE customer_id = $1 AND purpose = ANY($2) AND state = 'OPEN'${subject}`,
    subjectId === undefined ? [customerId, purposes] : [customerId, purposes, subjectId],
  );
}

export async function lockChallenge(tx: Tx, platformId: string, id: string) {
  const [row] = await tx.query<ChallengeRow>(
    "SELECT * FROM sca_challenges WHERE platform_id = $1 AND id = $2 FOR UPDATE",
    [platformId, id],
  );
  return row;
}

export async function findChallenge(db: Executor, platformId: string, id: string) {
  const [row] = await db.query<ChallengeRow>(
    "SELECT * FROM sca_challenges WHERE platform_id = $1 AND id = $2",
    [platformId, id],
  );
  return row;
}

/** The customer's newest open challenge of `purpose` (of `subjectId` when given), locked. */
export async function latestOpenChallenge(
  tx: Tx,
  customerId: string,
  purpose: ChallengePurpose,
  subjectId?: string,
) {
  const subject = subjectId === undefined ? "" : " AND subject_id = $3";
  const [row] = await tx.query<ChallengeRow>(
    `SELECT * FROM sca_challenges WHERE customer_id = $1 AND purpose = $2${subject} AND state = 'OPEN'
     ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
    subjectId === undefined ? [customerId, purpose] : [customerId, purpose, subjectId],
  );
  return row;
}

export async function findChallengeBySubject(db: Executor, purpose: ChallengePurpose, subjectId: string) {
  const [row] = await db.query<ChallengeRow>(
    "SELECT * FROM sca_challenges WHERE purpose = $1 AND subject_id = $2 ORDER BY created_at DESC LIMIT 1",
    [purpose, subjectId],
  );
  return row;
}

export async function setChallengeState(
  tx: Tx,
  id: string,
  change: { state: ChallengeRow["state"]; failedAttempts?: number; completedAt?: Date },
): Promise<void> {
  await tx.query(
    `UPDATE sca_challenges SET state = $2, failed_attempts = COALESCE($3, failed_attempts),
       completed_at = COALESCE($4, completed_at) WHERE id = $1`,
    [id, change.state, change.failedAttempts ?? null, change.completedAt ?? null],
  );
}

export async function insertSession(tx: Tx, row: SessionRow): Promise<void> {
  await tx.query(
    `INSERT INTO sca_sessions (id, platform_id, customer_id, factor, expires_at, revoked_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [row.id, row.platform_id, row.customer_id, row.factor, row.expires_at, row.revoked_at, row.created_at],
  );
}

/** The customer's latest session still live at `now` (not revoked, not expired). */
export async function liveSession(db: Executor, customerId: string, now: Date) {
  const [row] = await db.query<SessionRow>(
    `SELECT * FROM sca_sessions WHERE customer_id = $1 AND revoked_at IS NULL AND expires_at > $2
     ORDER BY expires_at DESC LIMIT 1`,
    [customerId, now],
  );
  return row;
}

/** Ends every live session of the customer (a password reset on the platform's side). */
export async function revokeSessions(tx: Tx, customerId: string, now: Date): Promise<void> {
  await tx.query("UPDATE sca_sessions SET revoked_at = $2 WHERE customer_id = $1 AND revoked_at IS NULL", [
    customerId,
    now,
  ]);
}

/** Marks an external account trusted (`trustedAt` set) or not (null); the trust state is a column of its row. */
export async function setTrustedAt(
  tx: Tx,
  id: string,
  trustedAt: Date | null,
  now: Date,
): Promise<ExternalAccountRow> {
  const [row] = await tx.query<ExternalAccountRow>(
    "UPDATE external_accounts SET trusted_at = $2, updated_at = $3 WHERE id = $1 RETURNING *",
    [id, trustedAt, now],
  );
  if (!row) throw new Error(`external account ${id} vanished`);
  return row;
}

export async function isTrustedBeneficiary(db: Executor, externalAccountId: string): Promise<boolean> {
  const [row] = await db.query<{ trusted_at: Date | null }>(
    "SELECT trusted_at FROM external_accounts WHERE id = $1",
    [externalAccountId],
  );
  return !!row?.trusted_at;
}

/** Holds a locked PENDING quote for its payment challenge: PENDING_AUTHORIZATION, the challenge in details. */
export async function holdQuote(
  tx: Tx,
  quoteId: string,
  details: Record<string, unknown>,
  now: Date,
): Promise<QuoteRow> {
  const [row] = await tx.query<QuoteRow>(
    `UPDATE quotes SET status = 'PENDING_AUTHORIZATION', details = details || $2::jsonb, updated_at = $3
     WHERE id = $1 RETURNING *`,
    [quoteId, details, now],
  );
  if (!row) throw new Error(`quote ${quoteId} vanished while locked`);
  return row;
}
