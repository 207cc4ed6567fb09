import type { Tx } from "../core/db/db.js";
import { together } from "../core/db/scope.js";
import { type Deps, nowFor } from "../core/deps.js";
import { invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { newId, sandboxSuffix } from "../core/ids.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import { type LockedAccounts, lockExistingForPosting } from "../ledger/ledger.js";
import {
  type CardTransactionRow,
  insertAndAnnounce,
  newIssuerToken,
  postCardMoney,
  type SimulationResult,
  simulationResult,
} from "./card-transactions.js";
import { applyClearing } from "./clearing.js";
import { findCardAndCardholderOrThrow } from "./issue.js";
import type { CardDeclinedReason, Merchant } from "./schemas.js";
import type { CardRow } from "./store.js";
import {
  AUTHORIZATION_TTL_MS,
  DELAYED_PULL_MS,
  EXPIRE_AUTHORIZATION,
  LAND_DELAYED_PULL,
} from "./transaction-jobs.js";

/** The network messages that open a card transaction (conventions §6.5). */
export type OpeningMessage =
  | "AUTHORIZATION"
  | "BALANCE_INQUIRY"
  | "CREDIT_AUTHORIZATION"
  | "CREDIT_AUTHORIZATION_ADVICE"
  | "FINANCIAL_AUTHORIZATION"
  | "FINANCIAL_CREDIT_AUTHORIZATION";

export interface OpeningRequest {
  message: OpeningMessage;
  /** Minor units of the card's currency; 0 for a balance inquiry. */
  amount: number;
  /** Must be the card's currency (cross-currency spend is not simulated). */
  currencyCode?: string;
  merchant: Merchant;
}

/**
 * How an authorization the funding sources cannot cover is answered: the sandbox declines it
 * (`INSUFFICIENT_FUNDS`); a production issuer approves it and the clearing resolves as EXCEPTION.
 */
export type UnderfundedPolicy = "DECLINE" | "APPROVE";

const isDebit = (message: OpeningMessage) =>
  message === "AUTHORIZATION" || message === "BALANCE_INQUIRY" || message === "FINANCIAL_AUTHORIZATION";

// Merchant descriptor suffixes that decline (conventions §6.5).
const descriptorDeclines: Record<string, CardDeclinedReason> = {
  "002": "INSUFFICIENT_FUNDS",
  "003": "CARD_NOT_ACTIVE",
  "007": "BLOCKED",
  "008": "UNSUPPORTED_NETWORK",
  "009": "OTHER",
};

const available = (account: InternalAccountRow) => account.total_balance - account.held_amount;

/** The card's funding sources that can fund it now, in priority order, locked. */
async function eligibleSources(
  tx: Tx,
  card: CardRow,
): Promise<{ eligible: InternalAccountRow[]; all: InternalAccountRow[]; locked: LockedAccounts }> {
  const locked = await lockExistingForPosting(tx, card.platform_id, card.funding_sources);
  const all = card.funding_sources.flatMap((id) => locked.get(id) ?? []);
  const eligible = all.filter(
    (a) =>
      a.customer_id === card.cardholder_id &&
      a.type === "INTERNAL_FIAT" &&
      a.status === "ACTIVE" &&
      a.currency === card.currency,
  );
  return { eligible, all, locked };
}

/** The decline checks in their fixed order (conventions §6.5), or null when approved. */
function declineReason(
  card: CardRow,
  request: OpeningRequest,
  eligible: InternalAccountRow[],
  policy: UnderfundedPolicy,
): CardDeclinedReason | null {
  if (request.message === "CREDIT_AUTHORIZATION_ADVICE") return null;
  if (card.status !== "ACTIVE") return "CARD_NOT_ACTIVE";
  if (eligible.length === 0) return "NO_ELIGIBLE_FUNDING_SOURCE";
  const debit = isDebit(request.message);
  if (debit && card.max_spend_per_transaction !== null && request.amount > card.max_spend_per_transaction)
    return "SPEND_LIMIT_EXCEEDED";
  const bySuffix = descriptorDeclines[sandboxSuffix(request.merchant.descriptor)];
  if (bySuffix) return bySuffix;
  if (debit && policy === "DECLINE" && !eligible.some((a) => available(a) >= request.amount))
    return "INSUFFICIENT_FUNDS";
  return null;
}

/**
 * Opens a card transaction from a network message, under the card's and its funding accounts' locks:
 * a DECLINED row (no hold, no money), an AUTHORIZED row (a hold on the first source whose available
 * balance covers it; none for inquiries and credits), or a SETTLED single-message row with its one
 * balance change. Fires the row's CARD_TRANSACTION.* event.
 */
export async function openCardTransaction(
  deps: Deps,
  caller: Caller,
  rawCardId: string,
  request: OpeningRequest,
  policy: UnderfundedPolicy,
): Promise<SimulationResult> {
  return deps.db.transaction(async (tx) => {
    const { card, cardholder } = await findCardAndCardholderOrThrow(tx, caller, rawCardId, true);
    if (request.currencyCode !== undefined && request.currencyCode !== card.currency)
      throw invalidField("currency.code", `must be the card's currency ${card.currency}`);
    const now = nowFor(deps, caller);
    const { eligible, all, locked } = await eligibleSources(tx, card);
    const reason = declineReason(card, request, eligible, policy);
    const debit = isDebit(request.message);
    const account =
      (debit ? eligible.find((a) => available(a) >= request.amount) : undefined) ?? eligible[0] ?? all[0];
    if (!account) throw new Error(`card ${card.id} has no funding source row`);
    const row: CardTransactionRow = {
      id: newId("CardTransaction"),
      platform_id: card.platform_id,
      card_id: card.id,
      account_id: account.id,
      customer_id: card.cardholder_id,
      issuer_transaction_token: newIssuerToken(),
      status: reason ? "DECLINED" : "AUTHORIZED",
      direction: debit ? "DEBIT" : "CREDIT",
      merchant: request.merchant,
      currency: card.currency,
      authorized_amount: request.amount,
      hold_amount: 0,
      settled_amount: null,
      refunded_amount: null,
      original_transaction_id: null,
      card_declined_reason: reason,
      sandbox_outcome: null,
      pull_count: 0,
      pull_total: 0,
      pull_pending_count: 0,
      settlement_count: 0,
      settlement_total: 0,
      refund_count: 0,
      refund_total: 0,
      authorized_at: now,
      last_event_at: now,
      created_at: now,
      updated_at: now,
    };
    if (reason) {
      await insertAndAnnounce(tx, row, now, true, cardholder);
      return simulationResult(row);
    }
    if (
      request.message === "FINANCIAL_AUTHORIZATION" ||
      request.message === "FINANCIAL_CREDIT_AUTHORIZATION"
    ) {
      // Single message: approval and clearing together, one event for the settled row. Its clearing is
      // its first, so a `006` descriptor ends it in EXCEPTION with the debit posted (conventions §6.5).
      if (
        request.message === "FINANCIAL_AUTHORIZATION" &&
        sandboxSuffix(request.merchant.descriptor) === "006"
      )
        row.sandbox_outcome = "EXCEPTION_ON_CLEARING";
      await insertAndAnnounce(tx, row, now, false);
      await applyClearing(tx, deps, row, { amount: request.amount, now, effectiveAt: now }, cardholder);
      return simulationResult(row);
    }
    const suffix = sandboxSuffix(request.merchant.descriptor);
    if (request.message === "AUTHORIZATION" && request.amount > 0) {
      if (suffix === "005") {
        // The funding pull lands later; AUTHORIZED fires then (transaction-jobs.ts).
        row.pull_pending_count = 1;
        await scheduleJob(
          tx,
          {
            platformId: row.platform_id,
            kind: LAND_DELAYED_PULL,
            payload: { cardTransactionId: row.id },
            runAt: new Date(now.getTime() + DELAYED_PULL_MS),
            now,
          },
          { withCommit: true },
        );
      } else {
        row.hold_amount = request.amount;
        row.pull_count = 1;
        row.pull_total = request.amount;
      }
      if (suffix === "006") row.sandbox_outcome = "EXCEPTION_ON_CLEARING";
    }
    // The row and its hold need nothing from each other: one round trip; the expiry goes with the commit.
    await together(
      insertAndAnnounce(tx, row, now, row.pull_pending_count === 0, cardholder),
      postCardMoney(tx, deps, {
        platformId: row.platform_id,
        now,
        holds: [{ accountId: row.account_id, delta: row.hold_amount }],
        locked,
      }),
    );
    await scheduleJob(
      tx,
      {
        platformId: row.platform_id,
        kind: EXPIRE_AUTHORIZATION,
        payload: { cardTransactionId: row.id },
        runAt: new Date(now.getTime() + AUTHORIZATION_TTL_MS),
        now,
      },
      { withCommit: true },
    );
    return simulationResult(row);
  });
}
