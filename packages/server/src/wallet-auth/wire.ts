import type { AuthMethod, AuthSession } from "./schemas.js";
import type { AuthMethodRow, AuthSessionRow } from "./store.js";

export function toAuthMethod(
  row: AuthMethodRow,
  extra: { otpEncryptionTargetBundle?: string } = {},
): AuthMethod {
  return {
    id: row.id,
    accountId: row.account_id,
    type: row.type,
    nickname: row.nickname,
    ...(row.credential_id ? { credentialId: row.credential_id } : {}),
    ...extra,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The wire AuthSession; never key material beyond the sealed `encryptedSessionSigningKey` of a verify. */
export function toAuthSession(
  session: AuthSessionRow,
  method: AuthMethodRow,
  encryptedSessionSigningKey?: string,
): AuthSession {
  return {
    id: session.id,
    accountId: session.account_id,
    type: method.type,
    nickname: method.nickname,
    ...(encryptedSessionSigningKey ? { encryptedSessionSigningKey } : {}),
    createdAt: session.created_at.toISOString(),
    updatedAt: session.updated_at.toISOString(),
    expiresAt: session.expires_at.toISOString(),
  };
}
