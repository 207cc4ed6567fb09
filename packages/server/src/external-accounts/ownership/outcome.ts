import type { Tx } from "../../core/db/db.js";
import { enqueueEvent } from "../../webhooks/outbox.js";
import type { ExternalAccount } from "../schemas.js";
import { type ExternalAccountRow, updateStatus } from "../store.js";
import { toExternalAccount } from "../wire.js";
import { type ChallengeRow, type ChallengeState, finishChallengeRow } from "./store.js";

/** Moves an external account to `status` and announces it; nothing happens when it is already there. */
export async function moveAccount(
  tx: Tx,
  account: ExternalAccountRow,
  status: string,
  now: Date,
): Promise<ExternalAccountRow> {
  if (account.status === status) return account;
  const moved = await updateStatus(tx, account.id, status, now);
  await enqueueEvent(tx, {
    platformId: moved.platform_id,
    type: "EXTERNAL_ACCOUNT.STATUS_UPDATED",
    data: toExternalAccount(moved),
    now,
  });
  return moved;
}

/**
 * Ends a challenge (state table, interface "External account"): VERIFIED makes the account ACTIVE; a
 * failed or late attempt (FAILED, EXPIRED) makes it UNVERIFIED. Each status change fires
 * EXTERNAL_ACCOUNT.STATUS_UPDATED in the caller's transaction.
 */
export async function finishChallenge(
  tx: Tx,
  account: ExternalAccountRow,
  challenge: ChallengeRow,
  state: Exclude<ChallengeState, "OPEN" | "ABANDONED">,
  now: Date,
): Promise<ExternalAccount> {
  await finishChallengeRow(tx, challenge.id, state, now);
  return toExternalAccount(
    await moveAccount(tx, account, state === "VERIFIED" ? "ACTIVE" : "UNVERIFIED", now),
  );
}
