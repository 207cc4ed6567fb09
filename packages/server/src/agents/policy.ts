import type { Executor } from "../core/db/db.js";
import { ApiError, invalidInput } from "../core/errors/api-error.js";
import { isKnownCurrency } from "../core/money.js";
import type { AgentPolicy, AgentPolicyInput, AgentUsage, UpdatePolicyBody } from "./schemas.js";
import * as store from "./store.js";

type FieldError = { field: string; message: string };

/**
 * The stored policy (the hosted API's AgentPolicy): currencies known, the approval threshold in the spending
 * limits' currency (the only one the agent may send), one rule per account (`400 INVALID_INPUT` otherwise).
 */
export function checkPolicy(input: AgentPolicyInput, prefix = "policy."): AgentPolicy {
  const errors: FieldError[] = [];
  const currency = input.spendingLimits.currency;
  if (!isKnownCurrency(currency))
    errors.push({
      field: `${prefix}spendingLimits.currency`,
      message: `${currency} is not a supported currency`,
    });
  const thresholdCurrency = input.approvalThresholds?.currency;
  if (thresholdCurrency !== undefined && thresholdCurrency !== currency)
    errors.push({
      field: `${prefix}approvalThresholds.currency`,
      message: `must be the spending limits' currency ${currency}: the agent sends no other`,
    });
  const rules = input.accountRestrictions?.accountRules ?? [];
  rules.forEach((rule, i) => {
    if (rules.findIndex((other) => other.accountId === rule.accountId) !== i)
      errors.push({
        field: `${prefix}accountRestrictions.accountRules[${i}].accountId`,
        message: `${rule.accountId} has more than one rule`,
      });
  });
  if (errors.length > 0) throw invalidInput(errors);
  const policy: AgentPolicy = {
    permissions: [...input.permissions],
    defaultExecutionMode: input.defaultExecutionMode,
    spendingLimits: { ...input.spendingLimits },
  };
  if (input.accountRestrictions) policy.accountRestrictions = structuredClone(input.accountRestrictions);
  if (input.approvalThresholds) policy.approvalThresholds = { ...input.approvalThresholds };
  return policy;
}

/** `PATCH /agents/{id}/policy`: the fields given replace the current ones; spendingLimits is merged field by field. */
export function mergePolicy(current: AgentPolicy, update: UpdatePolicyBody): AgentPolicy {
  const merged: AgentPolicyInput = {
    permissions: update.permissions ?? current.permissions,
    defaultExecutionMode: update.defaultExecutionMode ?? current.defaultExecutionMode,
    spendingLimits: { ...current.spendingLimits, ...update.spendingLimits },
  };
  const restrictions = update.accountRestrictions ?? current.accountRestrictions;
  if (restrictions) merged.accountRestrictions = restrictions;
  const thresholds = update.approvalThresholds ?? current.approvalThresholds;
  if (thresholds) merged.approvalThresholds = thresholds;
  return checkPolicy(merged, "");
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The current UTC day and month on the platform's clock, and when each counter resets. */
function periods(now: Date) {
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return {
    dayStart,
    monthStart,
    dailyResetDate: new Date(dayStart.getTime() + DAY_MS).toISOString().slice(0, 10),
    monthlyResetMonth: nextMonth.toISOString().slice(0, 7),
  };
}

/**
 * The hosted API's AgentUsage: the agent's actions of today and this month (UTC, the platform's clock)
 * that are waiting or went through (PENDING_APPROVAL, APPROVED); spend counts those in the limits' currency.
 */
export async function agentUsage(db: Executor, agent: store.AgentRow, now: Date): Promise<AgentUsage> {
  const { dayStart, monthStart, dailyResetDate, monthlyResetMonth } = periods(now);
  const counted = await store.usageSince(db, agent.id, agent.policy.spendingLimits.currency, {
    dayStart,
    monthStart,
  });
  return { ...counted, dailyResetDate, monthlyResetMonth };
}

export interface PaymentAsk {
  /** The customer's internal account the payment draws from (or, for a transfer in, pays into). */
  accountId: string;
  currency: string;
  /** What the payment counts against the limits: the total sent, fees included; the amount pulled in. */
  amount: number;
}

const sizeExceeded = (reason: string) => new ApiError("TRANSACTION_SIZE_LIMIT_EXCEEDED", { reason });
const velocityExceeded = (reason: string) => new ApiError("VELOCITY_LIMIT_EXCEEDED", { reason });

/**
 * Checks one payment against the policy and today's and this month's usage, and says whether it waits for
 * the platform. Another currency or an amount above a per-payment limit → `400
 * TRANSACTION_SIZE_LIMIT_EXCEEDED`; past a daily or monthly limit → `403 VELOCITY_LIMIT_EXCEEDED`; an
 * account outside `allowedAccountIds` → `403 FORBIDDEN`. The account's rule's mode, else the default mode;
 * `AUTO` above the approval threshold waits too.
 */
export function evaluatePayment(
  policy: AgentPolicy,
  usage: AgentUsage,
  ask: PaymentAsk,
): "AUTO" | "APPROVAL_REQUIRED" {
  const limits = policy.spendingLimits;
  const allowed = policy.accountRestrictions?.allowedAccountIds;
  if (allowed && !allowed.includes(ask.accountId))
    throw new ApiError("FORBIDDEN", {
      reason: `The agent's policy does not allow account ${ask.accountId}.`,
    });
  if (ask.currency !== limits.currency)
    throw sizeExceeded(`The agent's policy allows payments in ${limits.currency} only, not ${ask.currency}.`);
  const rule = policy.accountRestrictions?.accountRules?.find((r) => r.accountId === ask.accountId);
  for (const [limit, what] of [
    [limits.perTransactionLimit, "per payment"],
    [rule?.perTransactionLimit, `per payment from ${ask.accountId}`],
  ] as const) {
    if (typeof limit === "number" && ask.amount > limit)
      throw sizeExceeded(
        `${ask.amount} exceeds the agent's limit of ${limit} ${limits.currency} minor units ${what}.`,
      );
  }
  if (
    typeof limits.dailyTransactionLimit === "number" &&
    usage.dailyTransactionCount + 1 > limits.dailyTransactionLimit
  )
    throw velocityExceeded(`The agent made its ${limits.dailyTransactionLimit} payments allowed today.`);
  if (typeof limits.dailyLimit === "number" && usage.dailySpend + ask.amount > limits.dailyLimit)
    throw velocityExceeded(
      `${ask.amount} would take today's spend past the agent's daily limit of ${limits.dailyLimit} ${limits.currency} minor units (${usage.dailySpend} spent).`,
    );
  if (typeof limits.monthlyLimit === "number" && usage.monthlySpend + ask.amount > limits.monthlyLimit)
    throw velocityExceeded(
      `${ask.amount} would take this month's spend past the agent's monthly limit of ${limits.monthlyLimit} ${limits.currency} minor units (${usage.monthlySpend} spent).`,
    );
  const mode = rule?.executionMode ?? policy.defaultExecutionMode;
  const threshold = policy.approvalThresholds?.amount;
  if (mode === "AUTO" && typeof threshold === "number" && ask.amount > threshold) return "APPROVAL_REQUIRED";
  return mode;
}
