import { type Deps, nowFor } from "../core/deps.js";
import type { Caller } from "../core/http/context.js";
import {
  findCardTransactionOrThrow,
  postCardMoney,
  precondition,
  type SimulationResult,
  saveAndAnnounce,
  simulationResult,
} from "./card-transactions.js";
import { findCardOrThrow } from "./issue.js";

/**
 * `simulate/authorization_advice`: the network resizes an open authorization to a new total. The hold
 * becomes the new total less what has cleared (an increase counts as a funding pull); AUTHORIZED fires
 * again (conventions §6.4).
 */
export async function adviseAuthorization(
  deps: Deps,
  caller: Caller,
  rawCardId: string,
  body: { cardTransactionId: string; amount: number },
): Promise<SimulationResult> {
  return deps.db.transaction(async (tx) => {
    const card = await findCardOrThrow(tx, caller, rawCardId);
    const row = await findCardTransactionOrThrow(tx, caller, card, body.cardTransactionId);
    if (row.status !== "AUTHORIZED" && row.status !== "PARTIALLY_SETTLED")
      throw precondition(
        `Card transaction ${row.id} is ${row.status}; an advice needs an open authorization.`,
      );
    const now = nowFor(deps, caller);
    const updated = { ...row, authorized_amount: body.amount };
    if (row.direction === "DEBIT" && row.pull_pending_count === 0) {
      const hold = Math.max(0, body.amount - (row.settled_amount ?? 0));
      const delta = hold - row.hold_amount;
      updated.hold_amount = hold;
      if (delta > 0) {
        updated.pull_count = row.pull_count + 1;
        updated.pull_total = row.pull_total + delta;
      }
      await postCardMoney(tx, deps, {
        platformId: row.platform_id,
        now,
        holds: [{ accountId: row.account_id, delta }],
      });
    }
    await saveAndAnnounce(tx, updated, now, "AUTHORIZED");
    return simulationResult(row);
  });
}
