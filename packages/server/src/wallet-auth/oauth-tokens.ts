import type { Tx } from "../core/db/db.js";
import { sha256Hex } from "../core/hash.js";

/**
 * "Every call needs a fresh token" (conventions §5.7): a token that opened a session is recorded in
 * `signed_requests` (the table of single-use things) as a COMPLETED row of action `OAUTH_TOKEN`, kept until
 * the token's `exp`. Its id is derived from the token's SHA-256, so the primary key makes the claim atomic:
 * two verifies racing with one token cannot both insert it.
 */
export async function claimOidcToken(
  tx: Tx,
  input: {
    platformId: string;
    accountId: string;
    authMethodId: string;
    token: string;
    expiresAt: Date;
    now: Date;
  },
): Promise<boolean> {
  const digest = sha256Hex(input.token);
  const rows = await tx.query(
    `INSERT INTO signed_requests (id, platform_id, account_id, action, method, path, body_sha256, payload_to_sign,
       context, state, result_status, expires_at, completed_at, created_at)
     VALUES ($1, $2, $3, 'OAUTH_TOKEN', 'POST', $4, $5, '', $6::jsonb, 'COMPLETED', 200, $7, $8, $8)
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [
      `Request:${tokenUuid(digest)}`,
      input.platformId,
      input.accountId,
      `/auth/credentials/${input.authMethodId}/verify`,
      digest,
      JSON.stringify({ authMethodId: input.authMethodId }),
      input.expiresAt,
      input.now,
    ],
  );
  return rows.length === 1;
}

/** A UUID (version 8, RFC 9562 custom) made of the digest's first 16 bytes: the same token, the same id. */
function tokenUuid(digestHex: string): string {
  const b = Buffer.from(digestHex.slice(0, 32), "hex");
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x80;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
