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
import { transferInWithin } from "../payments/transfer-in.js";
import type { TransferInBody, TransferOutBody } from "../payments/transfer-schemas.js";
import type { ExecutionGate } from "../quotes/execution-gate.js";
import { createQuoteIn, quoteNotFound, toQuote } from "../quotes/quotes.js";
import { checkQuoteRequest } from "../quotes/request.js";
import type { CreateQuoteBody, Quote } from "../quotes/schemas.js";
import * as quoteStore from "../quotes/store.js";
import { recordAction } from "./actions.js";
import { agentUsage, evaluatePayment, type PaymentAsk } from "./policy.js";
import type { AgentAction } from "./schemas.js";
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

/**
 * The agent's row, locked in a payment's transaction: payments of one agent queue here, so each is checked
 * against the usage the previous ones left (daily and monthly limits hold under concurrency).
 */
async function lockedAgent(tx: Executor, caller: Caller, lock: boolean): Promise<store.AgentRow> {
  const row = await store.findAgent(tx, caller.platformId, agentOf(caller).agentId, lock);
  if (!row) throw new Error("authenticated agent vanished");
  return row;
}

/** The policy's verdict on one payment, with the usage as of `now` (see evaluatePayment). */
async function judge(tx: Executor, agent: store.AgentRow, ask: PaymentAsk, now: Date) {
  return evaluatePayment(agent.policy, await agentUsage(tx, agent, now), ask);
}

/**
 * `POST /agents/me/quotes`: a quote from the agent's customer's account to another of its accounts or one
 * of its external accounts, within the policy (the locked sending amount here; the total with fees and
 * the usage again at execute). Created through the quotes domain, linked to the agent in its transaction.
 */
export async function createAgentQuote(deps: Deps, caller: Caller, body: CreateQuoteBody): Promise<Quote> {
  const agent = agentOf(caller);
  if (body.immediatelyExecute === true)
    throw invalidField("immediatelyExecute", "agents execute with POST /agents/me/quotes/{quoteId}/execute");
  const request = checkQuoteRequest(body);
  await requireOwnAccount(deps, caller, agent.customerId, request.source.accountId);
  await requireOwnAccount(deps, caller, agent.customerId, request.destination.accountId);
  const source = await findAccountOrThrow(deps.db, caller, request.source.accountId);
  // The amount is known in the sending currency only when that side is locked; execute checks the total.
  const amount = request.lockedCurrencySide === "SENDING" ? request.lockedCurrencyAmount : 0;
  await judge(
    deps.db,
    await lockedAgent(deps.db, caller, false),
    { accountId: source.id, currency: source.currency, amount },
    nowFor(deps, caller),
  );
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
 * A quote of the agent's executed under the policy's verdict: waiting for the platform (awaitApproval) or
 * at once through payments' quote execution; recorded as an action, all in the caller's transaction.
 */
async function executeUnderPolicy(
  tx: Tx,
  context: { deps: Deps; caller: Caller; now: Date; gates: readonly ExecutionGate[] },
  agent: store.AgentRow,
  quote: quoteStore.QuoteRow,
  action: {
    type: "EXECUTE_QUOTE" | "TRANSFER_OUT";
    transfer_details?: store.AgentActionRow["transfer_details"];
  },
): Promise<AgentAction> {
  const { now, caller } = context;
  const ask = {
    accountId: quote.source_account_id ?? "",
    currency: quote.sending_currency,
    amount: quote.total_sending_amount,
  };
  const mode = await judge(tx, agent, ask, now);
  const executed =
    mode === "APPROVAL_REQUIRED"
      ? await awaitApproval(tx, quote, now)
      : await executeQuote(tx, context, quote);
  return recordAction(
    tx,
    {
      platform_id: caller.platformId,
      agent_id: agent.id,
      customer_id: agent.customer_id,
      type: action.type,
      status: mode === "APPROVAL_REQUIRED" ? "PENDING_APPROVAL" : "APPROVED",
      quote_id: executed.id,
      transaction_id: executed.transaction_id,
      transfer_details: action.transfer_details ?? null,
      amount: ask.amount,
      currency: ask.currency,
    },
    now,
  );
}

/**
 * `POST /agents/me/quotes/{quoteId}/execute` → the EXECUTE_QUOTE AgentAction (the hosted answer). Checks as
 * `POST /quotes/{id}/execute` (409 once executed, 400 QUOTE_EXPIRED committed as EXPIRED), then the policy
 * against `totalSendingAmount` and the usage: PENDING_APPROVAL (the payment waits for the platform) or
 * APPROVED (executed at once).
 */
export async function executeAgentQuote(
  deps: Deps,
  caller: Caller,
  rawId: string,
  gates: readonly ExecutionGate[],
): Promise<AgentAction> {
  const id = parseId("Quote", rawId);
  const outcome = await deps.db.transaction(
    async (tx): Promise<{ expired: quoteStore.QuoteRow } | { action: AgentAction }> => {
      const agent = await lockedAgent(tx, caller, true);
      const link = id ? await store.findAgentQuote(tx, id) : undefined;
      const row =
        link && link.agent_id === agent.id
          ? await quoteStore.lockQuote(tx, caller.platformId, link.quote_id)
          : undefined;
      if (!row) throw quoteNotFound(rawId);
      const now = nowFor(deps, caller);
      const expired = await expiredOrExecutable(tx, row, now);
      if (expired) return { expired };
      const context = { deps, caller, now, gates };
      return { action: await executeUnderPolicy(tx, context, agent, row, { type: "EXECUTE_QUOTE" }) };
    },
  );
  if ("expired" in outcome) throw quoteExpired(outcome.expired);
  return outcome.action;
}

/**
 * `POST /agents/me/transfer-out`: a payout from one of the customer's internal accounts to one of its
 * external accounts, built as an agent quote and executed at once (the rules, fees and rails of
 * `POST /quotes`), within the policy. Recorded as a TRANSFER_OUT action; when the policy requires
 * approval the payment waits for the platform like an executed agent quote.
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
  const now = nowFor(deps, caller);
  const ask = { accountId: source.id, currency: source.currency, amount: body.amount };
  await judge(deps.db, await lockedAgent(deps.db, caller, false), ask, now);
  return deps.db.transaction(async (tx) => {
    const locked = await lockedAgent(tx, caller, true);
    const quote = await createQuoteIn(tx, deps, caller, { ...request, immediatelyExecute: false }, now);
    await store.insertAgentQuote(tx, quote.id, agent.agentId, now);
    return executeUnderPolicy(tx, { deps, caller, now, gates }, locked, quote, {
      type: "TRANSFER_OUT",
      transfer_details: {
        amount: body.amount,
        currency: source.currency,
        sourceAccountId: source.id,
        destinationAccountId: body.destination.accountId,
      },
    });
  });
}

/**
 * `POST /agents/me/transfer-in` → the TRANSFER_IN AgentAction: payments' transfer in (the hosted
 * TransferInRequest: from one of the customer's external accounts into one of its internal accounts),
 * within the policy (its amount counts against the limits). AUTO: moved at once, the action APPROVED, in
 * one transaction with the money; APPROVAL_REQUIRED: nothing moves, the action waits (PENDING_APPROVAL,
 * no transaction) and the platform's approval moves it.
 */
export async function agentTransferIn(
  deps: Deps,
  caller: Caller,
  body: TransferInBody,
): Promise<AgentAction> {
  const agent = agentOf(caller);
  if (!parseId("ExternalAccount", body.source.accountId))
    throw invalidField("source.accountId", "must be an external account of the agent's customer");
  await requireOwnAccount(deps, caller, agent.customerId, body.source.accountId);
  await requireOwnAccount(deps, caller, agent.customerId, body.destination.accountId);
  const destination = await findAccountOrThrow(deps.db, caller, body.destination.accountId);
  return deps.db.transaction(async (tx) => {
    const now = nowFor(deps, caller);
    const locked = await lockedAgent(tx, caller, true);
    const ask = { accountId: destination.id, currency: destination.currency, amount: body.amount };
    const mode = await judge(tx, locked, ask, now);
    const moved = mode === "AUTO" ? await transferInWithin(tx, caller, body, now) : undefined;
    return recordAction(
      tx,
      {
        platform_id: caller.platformId,
        agent_id: agent.agentId,
        customer_id: agent.customerId,
        type: "TRANSFER_IN",
        status: !moved ? "PENDING_APPROVAL" : moved.status === "FAILED" ? "FAILED" : "APPROVED",
        transaction_id: moved?.id ?? null,
        transfer_details: {
          amount: body.amount,
          currency: destination.currency,
          sourceAccountId: body.source.accountId,
          destinationAccountId: destination.id,
        },
        amount: body.amount,
        currency: destination.currency,
      },
      now,
    );
  });
}
