import type { Executor, Tx } from "../core/db/db.js";

export type CredentialType = "PASSKEY" | "OAUTH" | "EMAIL_OTP" | "SMS_OTP";

export interface AuthMethodRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  account_id: string;
  type: CredentialType;
  nickname: string;
  credential_id: string | null;
  passkey_public_key: string | null;
  passkey_counter: number | null;
  passkey_transports: string[] | null;
  oidc_issuer: string | null;
  oidc_audience: string | null;
  oidc_subject: string | null;
  revoked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface AuthSessionRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  account_id: string;
  auth_method_id: string;
  public_key: string;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const methodColumns = [
  "id",
  "platform_id",
  "account_id",
  "type",
  "nickname",
  "credential_id",
  "passkey_public_key",
  "passkey_counter",
  "passkey_transports",
  "oidc_issuer",
  "oidc_audience",
  "oidc_subject",
  "revoked_at",
  "created_at",
  "updated_at",
] as const;

export async function insertAuthMethod(tx: Tx, row: AuthMethodRow): Promise<void> {
  await tx.query(
    `INSERT INTO auth_methods (${methodColumns.join(", ")}) VALUES (${methodColumns.map((c, i) => (c === "passkey_transports" ? `$${i + 1}::jsonb` : `$${i + 1}`)).join(", ")})`,
    methodColumns.map((c) =>
      c === "passkey_transports" && row[c] !== null ? JSON.stringify(row[c]) : row[c],
    ),
  );
}

/** A live (not revoked) credential of the platform. */
export async function findAuthMethod(db: Executor, platformId: string, id: string, lock = false) {
  const [row] = await db.query<AuthMethodRow>(
    `SELECT * FROM auth_methods WHERE platform_id = $1 AND id = $2 AND revoked_at IS NULL${lock ? " FOR UPDATE" : ""}`,
    [platformId, id],
  );
  return row;
}

/**
 * A credential of the platform, revoked or not: the signed retry of an operation that already revoked it
 * (or its re-send while PROCESSING) must still find it to answer with the operation's own result.
 */
export async function findAuthMethodInAnyState(db: Executor, platformId: string, id: string) {
  const [row] = await db.query<AuthMethodRow>(
    "SELECT * FROM auth_methods WHERE platform_id = $1 AND id = $2",
    [platformId, id],
  );
  return row;
}

/** The account's live credentials, oldest first. */
export async function listAuthMethods(db: Executor, accountId: string): Promise<AuthMethodRow[]> {
  return db.query<AuthMethodRow>(
    "SELECT * FROM auth_methods WHERE account_id = $1 AND revoked_at IS NULL ORDER BY created_at, id",
    [accountId],
  );
}

export async function revokeAuthMethod(tx: Tx, id: string, now: Date): Promise<void> {
  await tx.query("UPDATE auth_methods SET revoked_at = $2, updated_at = $2 WHERE id = $1", [id, now]);
  await tx.query(
    "UPDATE auth_sessions SET revoked_at = $2, updated_at = $2 WHERE auth_method_id = $1 AND revoked_at IS NULL",
    [id, now],
  );
}

export async function insertSession(tx: Tx, row: AuthSessionRow): Promise<void> {
  await tx.query(
    `INSERT INTO auth_sessions (id, platform_id, account_id, auth_method_id, public_key, expires_at, revoked_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      row.id,
      row.platform_id,
      row.account_id,
      row.auth_method_id,
      row.public_key,
      row.expires_at,
      row.revoked_at,
      row.created_at,
      row.updated_at,
    ],
  );
}

/** A session of the platform that is neither revoked nor expired at `now`. */
export async function findActiveSession(db: Executor, platformId: string, id: string, now: Date) {
  const [row] = await db.query<AuthSessionRow>(
    "SELECT * FROM auth_sessions WHERE platform_id = $1 AND id = $2 AND revoked_at IS NULL AND expires_at > $3",
    [platformId, id, now],
  );
  return row;
}

/** A session of the platform in any state (revoked, expired), for the signed retry that ended it. */
export async function findSessionInAnyState(db: Executor, platformId: string, id: string, lock = false) {
  const [row] = await db.query<AuthSessionRow>(
    `SELECT * FROM auth_sessions WHERE platform_id = $1 AND id = $2${lock ? " FOR UPDATE" : ""}`,
    [platformId, id],
  );
  return row;
}

/** The account's active sessions, oldest first. */
export async function listActiveSessions(
  db: Executor,
  accountId: string,
  now: Date,
): Promise<AuthSessionRow[]> {
  return db.query<AuthSessionRow>(
    "SELECT * FROM auth_sessions WHERE account_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY created_at, id",
    [accountId, now],
  );
}

export async function revokeSession(tx: Tx, id: string, now: Date): Promise<void> {
  await tx.query("UPDATE auth_sessions SET revoked_at = $2, updated_at = $2 WHERE id = $1", [id, now]);
}

/**
 * The active sessions of `accountIds` whose key is `publicKey`: who may sign a stamp. A session's key is
 * unique in practice (a fresh client key per login), so this is at most one row.
 */
export async function activeSessionsByKey(
  db: Executor,
  accountIds: string[],
  publicKey: string,
  now: Date,
): Promise<AuthSessionRow[]> {
  return db.query<AuthSessionRow>(
    `SELECT * FROM auth_sessions WHERE account_id = ANY($1) AND public_key = $2 AND revoked_at IS NULL AND expires_at > $3`,
    [accountIds, publicKey, now],
  );
}
