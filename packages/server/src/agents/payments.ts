import type { Executor, Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { AgentPrincipal, Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import { findExternalAccountOrThrow } from "../external-accounts/external-accounts.js";
import { executeQuote } from "../payments/execute.js";
import { insertPayment, paymentFromQuote } from "../payments/lifecycle.js";
import { expiredOrExecutable, quoteExpired } from "../payments/quote-execution.js";
import type { TransferOutBody } from "../payments/transfer-schemas.js";
import type { ExecutionGate } from "../quotes/execution-gate.js";
import { createQuoteIn, quoteNotFound, toQuote } from "../quotes/quotes.js";
import { checkQuoteRequest } from "../quotes/request.js";
import type { CreateQuoteBody, Quote } from "../quotes/schemas.js";
import * as quoteStore from "../quotes/store.js";
import { recordAction, toAgentAction } from "./actions.js";
import type { AgentAction, AgentPolicy } from "./schemas.js";
import * as store from "./store.js";

/** The pendingReason of an agent payment waiting for `POST /transactions/{id}/approve`. */
export const PLATFORM_APPROVAL_REQUIRED = "PLATFORM_APPROVAL_REQUIRED";
/** The job that expires an unapproved agent payment when its quote expires. */
export const EXPIRE_PENDING_AGENT_PAYMENT = "agents.expire-pending-payment";

export function agentOf(caller: Caller): AgentPrincipal {
  if (!caller.agent) throw new Error("agent route reached without an agent caller");
  return caller.agent;
}

/** An account id of another customer reads exactly like one that does not exist (same 404 and reason). */
async function requireOwnAccount(deps: Deps, caller: Caller, customerId: string, rawId: string) {
  if (parseId("ExternalAccount", rawId)) {
    const row = await findExternalAccountOrThrow(deps.db, caller, rawId, "customer");
    if (row.customer_id !== customerId)
      throw new ApiError("ACCOUNT_NOT_FOUND", { reason: `No external account ${rawId}.` });
    return;
  }
  const row = await findAccountOrThrow(deps.db, caller, rawId);
  if (row.customer_id !== customerId)
    throw new ApiError("ACCOUNT_NOT_FOUND", { reason: `No internal account ${rawId}.` });
}

/** The policy ceiling for one payment in `currency`; a currency the policy does not list cannot be sent. */
function requireWithinPolicy(policy: AgentPolicy, currency: string, amount: number): void {
  const max = policy.maxTransactionAmounts.find((entry) => entry.currency === currency);
  if (!max)
    throw new ApiError("TRANSACTION_SIZE_LIMIT_EXCEEDED", {
      reason: `The agent's policy allows no payments in ${currency}.`,
    });
  if (amount > max.amount)
    throw new ApiError("TRANSACTION_SIZE_LIMIT_EXCEEDED", {
      reason: `${amount} exceeds the agent's maximum of ${max.amount} ${currency} minor units per payment.`,
    });
}

async function currentPolicy(tx: Executor, caller: Caller): Promise<AgentPolicy> {
  const row = await store.findAgent(tx, caller.platformId, agentOf(caller).agentId);
  if (!row) throw new Error("authenticated agent vanished");
  return row.policy;
}

/**
 * `POST /agents/me/quotes`: a quote from the agent's customer's account to another of its accounts or one
 * of its external accounts, within the policy's per-currency maximum (`lockedCurrencyAmount` here; the
 * total with fees at execute). Created through the quotes domain, then linked to the agent.
 */
export async function createAgentQuote(deps: Deps, caller: Caller, body: CreateQuoteBody): Promise<Quote> {
  const agent = agentOf(caller);
  if (body.immediatelyExecute === true)
    throw invalidField("immediatelyExecute", "agents execute with POST /agents/me/quotes/{quoteId}/execute");
  const request = checkQuoteRequest(body);
  await requireOwnAccount(deps, caller, agent.customerId, request.source.accountId);
  await requireOwnAccount(deps, caller, agent.customerId, request.destination.accountId);
  const source = await findAccountOrThrow(deps.db, caller, request.source.accountId);
  const policy = await currentPolicy(deps.db, caller);
  requireWithinPolicy(policy, source.currency, request.lockedCurrencyAmount);
  // The quote and its link to the agent commit together: no quote is left that no agent can execute.
  return deps.db.transaction(async (tx) => {
    const now = nowFor(deps, caller);
    const quote = await createQuoteIn(tx, deps, caller, { ...request, immediatelyExecute: false }, now);
    await store.insertAgentQuote(tx, quote.id, agent.agentId, now);
    return toQuote(quote, now);
  });
}

/** Reads one of this agent's quotes; any other quote id is `404 QUOTE_NOT_FOUND`. */
export async function getAgentQuote(deps: Deps, caller: Caller, rawId: string): Promise<Quote> {
  const id = parseId("Quote", rawId);
  const link = id ? await store.findAgentQuote(deps.db, id) : undefined;
  const row =
    link && link.agent_id === agentOf(caller).agentId
      ? await quoteStore.findQuote(deps.db, caller.platformId, link.quote_id)
      : undefined;
  if (!row) throw quoteNotFound(rawId);
  return toQuote(row, nowFor(deps, caller));
}

/**
 * An agent payment that waits for `POST /transactions/{id}/approve`: a PENDING OUTGOING transaction
 * (pendingReason PLATFORM_APPROVAL_REQUIRED, no money moved) and its start event, the quote
 * PENDING_AUTHORIZATION, and a job that expires it with the quote.
 */
async function awaitApproval(tx: Tx, row: quoteStore.QuoteRow, now: Date) {
  const rail = row.details.paymentRail;
  const mode = row.details.railSelectionMode;
  await insertPayment(
    tx,
    paymentFromQuote(row, "PENDING", {
      now,
      pending_reason: PLATFORM_APPROVAL_REQUIRED,
      payment_rail: typeof rail === "string" ? rail : null,
      rail_selection_mode: typeof mode === "string" ? mode : null,
    }),
  );
  await scheduleJob(tx, {
    platformId: row.platform_id,
    kind: EXPIRE_PENDING_AGENT_PAYMENT,
    payload: { transactionId: row.transaction_id },
    runAt: row.expires_at,
    now,
  });
  return quoteStore.updateQuoteStatus(tx, row.id, { status: "PENDING_AUTHORIZATION", now });
}

/**
 * `POST /agents/me/quotes/{quoteId}/execute`. Checks as `POST /quotes/{id}/execute` (409 once executed,
 * 400 QUOTE_EXPIRED committed as EXPIRED), then the policy's maximum against `totalSendingAmount`. With
 * `requirePlatformApproval` the payment waits for the platform (awaitApproval); otherwise it executes at
 * once through payments' quote execution.
 */
export async function executeAgentQuote(
  deps: Deps,
  caller: Caller,
  rawId: string,
  gates: readonly ExecutionGate[],
): Promise<Quote> {
  const agent = agentOf(caller);
  const id = parseId("Quote", rawId);
  const outcome = await deps.db.transaction(
    async (tx): Promise<{ expired: quoteStore.QuoteRow } | { quote: Quote }> => {
      const link = id ? await store.findAgentQuote(tx, id) : undefined;
      const row =
        link && link.agent_id === agent.agentId
          ? await quoteStore.lockQuote(tx, caller.platformId, link.quote_id)
          : undefined;
      if (!row) throw quoteNotFound(rawId);
      const now = nowFor(deps, caller);
      const expired = await expiredOrExecutable(tx, row, now);
      if (expired) return { expired };
      const policy = await currentPolicy(tx, caller);
      requireWithinPolicy(policy, row.sending_currency, row.total_sending_amount);
      const executed = policy.requirePlatformApproval
        ? await awaitApproval(tx, row, now)
        : await executeQuote(tx, { deps, caller, now, gates }, row);
      await recordAction(
        tx,
        {
          platform_id: caller.platformId,
          agent_id: agent.agentId,
          customer_id: agent.customerId,
          type: "EXECUTE_QUOTE",
          status: policy.requirePlatformApproval ? "PENDING_APPROVAL" : "APPROVED",
          quote_id: executed.id,
          transaction_id: executed.transaction_id,
        },
        now,
      );
      return { quote: toQuote(executed, now) };
    },
  );
  if ("expired" in outcome) throw quoteExpired(outcome.expired);
  return outcome.quote;
}

/**
 * `POST /agents/me/transfer-out`: a payout from one of the customer's internal accounts to one of its
 * external accounts, built as an agent quote and executed at once (the rules, fees and rails of
 * `POST /quotes`), within the policy's maximum. Recorded as a TRANSFER_OUT action; with
 * `requirePlatformApproval` the payment waits for approval like an executed agent quote.
 */
export async function agentTransferOut(
  deps: Deps,
  caller: Caller,
  body: TransferOutBody,
  gates: readonly ExecutionGate[],
): Promise<AgentAction> {
  const agent = agentOf(caller);
  if (!parseId("ExternalAccount", body.destination.accountId))
    throw invalidField("destination.accountId", "must be an external account of the agent's customer");
  const request = checkQuoteRequest({
    source: { sourceType: "ACCOUNT", accountId: body.source.accountId },
    destination: { destinationType: "ACCOUNT", ...body.destination },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: body.amount,
    ...(body.remittanceInformation ? { remittanceInformation: body.remittanceInformation } : {}),
    ...(body.purposeOfPayment ? { purposeOfPayment: body.purposeOfPayment } : {}),
  });
  await requireOwnAccount(deps, caller, agent.customerId, body.source.accountId);
  await requireOwnAccount(deps, caller, agent.customerId, body.destination.accountId);
  const source = await findAccountOrThrow(deps.db, caller, body.source.accountId);
  requireWithinPolicy(await currentPolicy(deps.db, caller), source.currency, body.amount);
  return deps.db.transaction(async (tx) => {
    const now = nowFor(deps, caller);
    const policy = await currentPolicy(tx, caller);
    const quote = await createQuoteIn(tx, deps, caller, { ...request, immediatelyExecute: false }, now);
    await store.insertAgentQuote(tx, quote.id, agent.agentId, now);
    requireWithinPolicy(policy, quote.sending_currency, quote.total_sending_amount);
    const executed = policy.requirePlatformApproval
      ? await awaitApproval(tx, quote, now)
      : await executeQuote(tx, { deps, caller, now, gates }, quote);
    const actionId = await recordAction(
      tx,
      {
        platform_id: caller.platformId,
        agent_id: agent.agentId,
        customer_id: agent.customerId,
        type: "TRANSFER_OUT",
        status: policy.requirePlatformApproval ? "PENDING_APPROVAL" : "APPROVED",
        quote_id: executed.id,
        transaction_id: executed.transaction_id,
        transfer_details: {
          amount: body.amount,
          currency: source.currency,
          sourceAccountId: source.id,
          destinationAccountId: body.destination.accountId,
        },
      },
      now,
    );
    const view = await store.findAction(tx, caller.platformId, actionId);
    if (!view) throw new Error(`agent action ${actionId} vanished`);
    return toAgentAction(tx, view, now);
  });
}
