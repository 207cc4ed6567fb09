import { type Deps, nowFor, walletVerificationThreshold } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { holdForScaChallenge } from "../sca/payments.js";
import { quoteNotFound, toQuote } from "./quotes.js";
import type { Quote } from "./schemas.js";
import { settleQuote } from "./settle.js";
import * as store from "./store.js";

type Outcome = { executed: Quote } | { expired: store.QuoteRow };

/**
 * `POST /quotes/{quoteId}/execute`. The quote row is locked first, so concurrent executes queue and
 * exactly one settles; the rest see COMPLETED → `409 CONFLICT`. An expired quote is marked EXPIRED and
 * that is committed before answering `400 QUOTE_EXPIRED`. INSUFFICIENT_FUNDS rolls everything back and
 * the quote stays PENDING, so it can be executed again after funding, until it expires.
 */
export async function executeQuote(
  deps: Deps,
  caller: Caller,
  rawId: string,
  scaFactor?: string,
): Promise<Quote> {
  const id = parseId("Quote", rawId);
  if (!id) throw quoteNotFound(rawId);
  const outcome = await deps.db.transaction(async (tx): Promise<Outcome> => {
    const row = await store.lockQuote(tx, caller.platformId, id);
    if (!row) throw quoteNotFound(rawId);
    const now = nowFor(deps, caller);
    if (row.status === "EXPIRED") return { expired: row };
    if (row.status !== "PENDING") {
      throw new ApiError("CONFLICT", {
        reason: `Quote ${row.id} is ${row.status}; it was already executed.`,
      });
    }
    if (now >= row.expires_at) {
      return { expired: await store.updateQuoteStatus(tx, row.id, { status: "EXPIRED", now }) };
    }
    // Strong customer authentication may hold a payout for its own challenge (src/sca/payments.ts).
    const held = await holdForScaChallenge(deps, tx, caller, row, now, scaFactor);
    if (held) return { executed: toQuote(held, now) };
    const executed = await settleQuote(tx, caller, row, now, walletVerificationThreshold(deps));
    return { executed: toQuote(executed, now) };
  });
  if ("expired" in outcome) {
    throw new ApiError("QUOTE_EXPIRED", {
      reason: `Quote ${outcome.expired.id} expired at ${outcome.expired.expires_at.toISOString()}; request a new one.`,
    });
  }
  return outcome.executed;
}
