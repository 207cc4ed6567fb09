import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { requireEndUserTerms } from "../customers/end-user-terms.js";
import type { ExecutionGate } from "../quotes/execution-gate.js";
import { checkFundingRequest, createFundingQuote, isFundingQuote } from "../quotes/funding.js";
import { createQuoteIn, quoteNotFound, toQuote } from "../quotes/quotes.js";
import { checkQuoteRequest } from "../quotes/request.js";
import type { CreateQuoteBody, Quote } from "../quotes/schemas.js";
import * as quotes from "../quotes/store.js";
import type { UmaQuoter } from "../quotes/uma-quoter.js";
import { executeQuote } from "./execute.js";
import { requireWalletSignature } from "./wallet-signature.js";

/**
 * `POST /quotes`: the quote (quotes/quotes.ts), and with `immediatelyExecute` its execution in the same
 * transaction, so a refused execution (INSUFFICIENT_FUNDS, a gate) leaves nothing, not even the quote.
 */
export async function createQuote(
  deps: Deps,
  caller: Caller,
  body: CreateQuoteBody,
  gates: readonly ExecutionGate[],
  uma?: { quoter: UmaQuoter; origin: string },
): Promise<Quote> {
  if (body.source.sourceType === "REALTIME_FUNDING") {
    const { now, ...quote } = await createFundingQuote(deps, caller, checkFundingRequest(body));
    return toQuote(quote, now);
  }
  if (body.destination.destinationType === "UMA_ADDRESS" && uma)
    return createUmaQuote(deps, caller, body, gates, uma);
  const request = checkQuoteRequest(body);
  return deps.db.transaction(
    async (tx) => {
      const now = nowFor(deps, caller);
      const quote = await createQuoteIn(tx, deps, caller, request, now);
      if (!request.immediatelyExecute) return toQuote(quote, now);
      return toQuote(await executeQuote(tx, { deps, caller, now, gates }, quote), now);
    },
    // An immediate execution shares its commit with other postings (core/db/group-commit.ts): the accounts
    // it locks are claimed by the ledger, and the daily volume counter is added to and checked in SQL.
    { grouped: request.immediatelyExecute === true },
  );
}

/**
 * A quote to a UMA address: priced by the pay request round trip (outside any transaction: it waits on
 * the receiver's VASP), then stored, and with `immediatelyExecute` executed in the same transaction.
 */
async function createUmaQuote(
  deps: Deps,
  caller: Caller,
  body: CreateQuoteBody,
  gates: readonly ExecutionGate[],
  uma: { quoter: UmaQuoter; origin: string },
): Promise<Quote> {
  const row = await uma.quoter(deps, caller, body, uma.origin);
  return deps.db.transaction(async (tx) => {
    const now = nowFor(deps, caller);
    if (!body.immediatelyExecute) await requireEndUserTerms(tx, [row.customer_id]);
    await quotes.insertQuote(tx, row);
    if (!body.immediatelyExecute) return toQuote(row, now);
    return toQuote(await executeQuote(tx, { deps, caller, now, gates }, row), now);
  });
}

/**
 * Whether a locked quote may execute now: undefined when it may; its EXPIRED row (to be committed before
 * answering `400 QUOTE_EXPIRED`) once past `expiresAt`; `409 CONFLICT` once executed. Shared by
 * `POST /quotes/{id}/execute` and the agents' execute.
 */
export async function expiredOrExecutable(
  tx: Tx,
  row: quotes.QuoteRow,
  now: Date,
): Promise<quotes.QuoteRow | undefined> {
  if (isFundingQuote(row))
    throw new ApiError("CONFLICT", {
      reason: `Quote ${row.id} is funded by its paymentInstructions and executes when the money arrives (POST /sandbox/send in the sandbox).`,
    });
  if (row.status === "EXPIRED") return row;
  if (row.status !== "PENDING")
    throw new ApiError("CONFLICT", { reason: `Quote ${row.id} is ${row.status}; it was already executed.` });
  if (now >= row.expires_at) return quotes.updateQuoteStatus(tx, row.id, { status: "EXPIRED", now });
  return undefined;
}

/** `400 QUOTE_EXPIRED`, answered after the EXPIRED status is committed. */
export const quoteExpired = (row: quotes.QuoteRow) =>
  new ApiError("QUOTE_EXPIRED", {
    reason: `Quote ${row.id} expired at ${row.expires_at.toISOString()}; request a new one.`,
  });

/**
 * `POST /quotes/{quoteId}/execute`. The quote row is locked first, so concurrent executes queue and
 * exactly one settles; the rest see it executed → `409 CONFLICT`. An expired quote is marked EXPIRED and
 * that is committed before answering `400 QUOTE_EXPIRED`. INSUFFICIENT_FUNDS rolls everything back and
 * the quote stays PENDING, so it can be executed again after funding, until it expires. Strong customer
 * authentication may hold a payout for its own challenge (factor `scaFactor`; sca/gate.ts). A quote from
 * an EMBEDDED_WALLET (the off-ramp) first needs its stamped payloadToSign (`walletSignature`, the
 * `Service-Wallet-Signature` header; wallet-signature.ts), checked before the quote's state.
 */
export async function executeQuoteById(
  deps: Deps,
  caller: Caller,
  rawId: string,
  options: { scaFactor: string | undefined; walletSignature?: string | undefined },
  gates: readonly ExecutionGate[],
): Promise<Quote> {
  const { scaFactor } = options;
  const id = parseId("Quote", rawId);
  if (!id) throw quoteNotFound(rawId);
  const outcome = await deps.db.transaction(
    async (tx): Promise<{ expired: quotes.QuoteRow } | { executed: Quote }> => {
      const row = await quotes.lockQuote(tx, caller.platformId, id);
      if (!row) throw quoteNotFound(rawId);
      const now = nowFor(deps, caller);
      await requireWalletSignature(tx, row, options.walletSignature, now);
      const expired = await expiredOrExecutable(tx, row, now);
      if (expired) return { expired };
      const executed = await executeQuote(tx, { deps, caller, now, gates }, row, { hold: { scaFactor } });
      return { executed: toQuote(executed, now) };
    },
  );
  if ("expired" in outcome) throw quoteExpired(outcome.expired);
  return outcome.executed;
}
