import type { Deps } from "../core/deps.js";
import { lockPlatform } from "../platform/store.js";
import * as store from "./store.js";

/** A platform's live-card caps as GET /config shows them (`cardLimits`). */
export interface CardLimits {
  platformId: string;
  maxLiveCards: number;
  /** null: no per-cardholder cap. */
  maxLiveCardsPerCardholder: number | null;
}

export interface CardLimitsChange {
  maxLiveCards: number;
  /** A number sets the cap, null removes it, undefined keeps the current value. */
  maxLiveCardsPerCardholder?: number | null;
}

// The columns are int4.
const MAX_CAP = 2_147_483_647;

/**
 * Operator only (`paysvc card-limits`; interface "CARD_LIMIT_REACHED … raised by the service operator"):
 * sets a platform's live-card caps under the platform row lock that card creation also takes, so no
 * POST /cards counts against a half-applied change. Lowering a cap below the live count closes
 * nothing: it only refuses new cards until enough are closed.
 */
export async function setCardLimits(
  deps: Pick<Deps, "db">,
  platformId: string,
  change: CardLimitsChange,
): Promise<CardLimits> {
  assertCap("maxLiveCards", change.maxLiveCards, 0);
  if (change.maxLiveCardsPerCardholder != null) {
    assertCap("maxLiveCardsPerCardholder", change.maxLiveCardsPerCardholder, 1);
  }
  return deps.db.transaction(async (tx) => {
    const platform = await lockPlatform(tx, platformId);
    if (!platform) throw new Error(`no platform ${platformId}`);
    const limits: CardLimits = {
      platformId,
      maxLiveCards: change.maxLiveCards,
      maxLiveCardsPerCardholder:
        change.maxLiveCardsPerCardholder === undefined
          ? platform.max_live_cards_per_cardholder
          : change.maxLiveCardsPerCardholder,
    };
    await store.setCardLimits(tx, platformId, limits);
    return limits;
  });
}

function assertCap(name: string, value: number, minimum: number): void {
  if (!Number.isInteger(value) || value < minimum || value > MAX_CAP) {
    throw new RangeError(`${name} must be an integer from ${minimum} to ${MAX_CAP}, not ${value}`);
  }
}
