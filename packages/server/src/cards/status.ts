import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidInput } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { revokeCardKeys } from "../wallet-auth/delegated-keys.js";
import { cardEvent } from "./events.js";
import { checkFundingSources } from "./funding.js";
import { findCardOrThrow } from "./issue.js";
import type { Card, CardStatus, UpdateCardBody } from "./schemas.js";
import * as store from "./store.js";
import { toCard } from "./wire.js";

/** The card state table of the interface: every other requested status is `409 INVALID_STATE_TRANSITION`. */
const allowedTransitions: Record<CardStatus, readonly CardStatus[]> = {
  PROCESSING: [],
  ACTIVE: ["FROZEN", "CLOSED"],
  FROZEN: ["ACTIVE", "CLOSED"],
  CLOSED: [],
};

const otherFields = ["fundingSources", "maxSpendPerTransaction"] as const;

/**
 * `PATCH /cards/{id}` (conventions §6.2): status, funding sources and spend limit, under the card's row
 * lock. Check order (§1.7): CLOSED with other fields (400), card (404), funding-source accounts (404,
 * then 400 FUNDING_SOURCE_INELIGIBLE), then the card's state (409). A status change fires
 * CARD.STATUS_CHANGE, a changed funding list CARD.FUNDING_SOURCE_CHANGE; a limit change fires nothing.
 */
export async function updateCard(
  deps: Deps,
  caller: Caller,
  rawId: string,
  body: UpdateCardBody,
): Promise<Card> {
  const combined = otherFields.filter((field) => body[field] !== undefined);
  if (body.status === "CLOSED" && combined.length > 0) {
    throw invalidInput(
      combined.map((field) => ({ field, message: "cannot be changed in the request that closes the card" })),
      "status CLOSED cannot be combined with other changes.",
    );
  }
  return deps.db.transaction(async (tx) => {
    const card = await findCardOrThrow(tx, caller, rawId, true);
    if (body.fundingSources) await checkCardFunding(tx, caller, card, body.fundingSources);
    assertChangeAllowed(card, body);

    const next: store.CardRow = { ...card };
    if (body.status) {
      next.status = body.status;
      next.status_reason = body.status === "CLOSED" ? "CLOSED_BY_PLATFORM" : null;
    }
    const fundingChanged =
      body.fundingSources !== undefined && !sameList(body.fundingSources, card.funding_sources);
    if (body.fundingSources) next.funding_sources = body.fundingSources;
    if (body.maxSpendPerTransaction !== undefined)
      next.max_spend_per_transaction = body.maxSpendPerTransaction;
    const limitChanged = next.max_spend_per_transaction !== card.max_spend_per_transaction;
    // A PATCH that restates the current values is answered with the card as it is: no write, no event.
    if (!body.status && !fundingChanged && !limitChanged) return toCard(card);

    const now = nowFor(deps, caller);
    next.updated_at = now;
    await store.updateCard(tx, next);
    if (next.status === "CLOSED") await revokeCardKeys(tx, next.id, now);
    if (body.status) await cardEvent(tx, "STATUS_CHANGE", next, now);
    if (fundingChanged) await cardEvent(tx, "FUNDING_SOURCE_CHANGE", next, now);
    return toCard(next);
  });
}

/** The new sources must pass the issuance checks and stay in the card's currency (a card never changes currency). */
async function checkCardFunding(
  tx: Tx,
  caller: Caller,
  card: store.CardRow,
  fundingSources: string[],
): Promise<void> {
  const currency = await checkFundingSources(tx, caller, card.cardholder_id, fundingSources);
  if (currency === card.currency) return;
  const errors = fundingSources.map((_, i) => ({
    field: `fundingSources[${i}]`,
    message: `is in ${currency}, not the card's currency ${card.currency}`,
  }));
  throw new ApiError("FUNDING_SOURCE_INELIGIBLE", {
    reason: `The funding sources are in ${currency}; card ${card.id} is in ${card.currency}.`,
    details: { errors },
  });
}

/** The interface's card state rules: a CLOSED card is immutable; other status moves follow the table. */
function assertChangeAllowed(card: store.CardRow, body: UpdateCardBody): void {
  if (card.status === "CLOSED") {
    if (body.status === "CLOSED") {
      throw new ApiError("CARD_ALREADY_CLOSED", { reason: `Card ${card.id} is already CLOSED.` });
    }
    throw new ApiError("CARD_NOT_MUTABLE", { reason: `Card ${card.id} is CLOSED and cannot be changed.` });
  }
  if (body.status && !allowedTransitions[card.status].includes(body.status)) {
    throw new ApiError("INVALID_STATE_TRANSITION", {
      reason: `Card ${card.id} cannot move from ${card.status} to ${body.status}.`,
    });
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
