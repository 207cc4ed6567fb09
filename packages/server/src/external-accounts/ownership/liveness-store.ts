import type { Executor, Tx } from "../../core/db/db.js";
import type { Environment } from "../../core/http/context.js";
import type { ChallengeRow } from "./store.js";

/** A LIVENESS challenge found by its link token, with what the hosted page needs to decide and show. */
export interface LivenessLookup {
  challenge: ChallengeRow;
  /** The platform's now (service clock plus its sandbox offset), read in the same statement. */
  platformNow: Date;
  environment: Environment;
  /** Null when the account was deleted. */
  account: { account_type: string; address: string } | null;
}

/**
 * The challenge behind a link token, read without a lock (the page only looks). "Now" is the service
 * clock moved by the challenge's platform's sandbox offset: the page is called without a platform.
 */
export async function findLiveness(
  db: Executor,
  tokenHash: string,
  serviceNow: Date,
): Promise<LivenessLookup | undefined> {
  const [row] = await db.query<
    ChallengeRow & {
      platform_now: Date;
      environment: Environment;
      account_type: string | null;
      address: string | null;
    }
  >(
    `SELECT c.*, $2::timestamptz + p.clock_offset_ms * interval '1 millisecond' AS platform_now, p.environment,
            e.account_type, e.account_info->>'address' AS address
       FROM ownership_challenges c
       JOIN platforms p ON p.id = c.platform_id
       LEFT JOIN external_accounts e ON e.id = c.external_account_id AND e.deleted_at IS NULL
      WHERE c.token_hash = $1 AND c.method = 'LIVENESS'`,
    [tokenHash, serviceNow],
  );
  if (!row) return undefined;
  const { platform_now, environment, account_type, address, ...challenge } = row;
  return {
    challenge: challenge as ChallengeRow,
    platformNow: platform_now,
    environment,
    account: account_type === null ? null : { account_type, address: address ?? "" },
  };
}

/**
 * Records the person's submission on the challenge, once: `submitted_at` on a still-OPEN LIVENESS
 * challenge is the moment the hosted flow was completed, while the provider's result is pending (the
 * completion job then sets the final state). One conditional UPDATE, so of two concurrent submits
 * exactly one matches; an abandoned, finished, already submitted or expired challenge, or a deleted
 * account, matches nothing.
 */
export async function markSubmitted(
  tx: Tx,
  tokenHash: string,
  serviceNow: Date,
): Promise<{ challenge: ChallengeRow; submittedAt: Date } | undefined> {
  const [row] = await tx.query<ChallengeRow>(
    `UPDATE ownership_challenges c
        SET submitted_at = $2::timestamptz + p.clock_offset_ms * interval '1 millisecond'
       FROM platforms p, external_accounts e
      WHERE p.id = c.platform_id AND e.id = c.external_account_id AND e.deleted_at IS NULL
        AND c.token_hash = $1 AND c.method = 'LIVENESS' AND c.state = 'OPEN' AND c.submitted_at IS NULL
        AND c.expires_at > $2::timestamptz + p.clock_offset_ms * interval '1 millisecond'
      RETURNING c.*`,
    [tokenHash, serviceNow],
  );
  if (!row?.submitted_at) return undefined;
  return { challenge: row, submittedAt: row.submitted_at };
}
