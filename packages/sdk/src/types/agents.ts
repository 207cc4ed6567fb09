/**
 * Agent wire types (the platform's side), mirroring packages/server/src/agents/schemas.ts field for field
 * (docs/guides/agents.md). Re-exported from index.ts.
 */
import type { SortedPageParams } from "./common.js";
import type { Transaction } from "./ledger.js";
import type { PaymentRail } from "./platform.js";
import type { Quote } from "./quotes.js";

/** The hosted API's AgentPermission. */
export type AgentPermission =
  | "VIEW_TRANSACTIONS"
  | "CREATE_TRANSFERS"
  | "CREATE_QUOTES"
  | "EXECUTE_QUOTES"
  | "MANAGE_EXTERNAL_ACCOUNTS";
export type AgentExecutionMode = "AUTO" | "APPROVAL_REQUIRED";

/** Per-payment, daily and monthly ceilings in one currency, minor units; other currencies cannot be sent. */
export interface AgentSpendingLimits {
  currency: string;
  perTransactionLimit: number;
  dailyLimit?: number | null;
  dailyTransactionLimit?: number;
  monthlyLimit?: number | null;
}

export interface AgentAccountRule {
  accountId: string;
  executionMode?: AgentExecutionMode;
  perTransactionLimit?: number | null;
}

export interface AgentAccountRestrictions {
  /** When set, the only internal accounts the agent's payments may use. */
  allowedAccountIds?: string[] | null;
  accountRules?: AgentAccountRule[];
}

/** With `AUTO`, payments above `amount` wait for approval all the same. */
export interface AgentApprovalThresholds {
  currency?: string;
  amount?: number | null;
}

/** The hosted API's AgentPolicy; `APPROVAL_REQUIRED` holds payments until the platform approves them. */
export interface AgentPolicy {
  permissions: AgentPermission[];
  defaultExecutionMode: AgentExecutionMode;
  spendingLimits: AgentSpendingLimits;
  accountRestrictions?: AgentAccountRestrictions;
  approvalThresholds?: AgentApprovalThresholds;
}

export interface CreateAgentBody {
  customerId: string;
  name: string;
  policy: AgentPolicy;
}

/** `PATCH /agents/{agentId}`: the name and `isPaused` (the policy changes with `agents.updatePolicy`). */
export interface UpdateAgentBody {
  name?: string;
  isPaused?: boolean;
}

/** `PATCH /agents/{agentId}/policy`: the fields given replace the policy's (spendingLimits field by field). */
export interface UpdateAgentPolicyBody {
  permissions?: AgentPermission[];
  defaultExecutionMode?: AgentExecutionMode;
  spendingLimits?: Partial<AgentSpendingLimits>;
  accountRestrictions?: AgentAccountRestrictions;
  approvalThresholds?: AgentApprovalThresholds;
}

/** What the agent has spent today and this month (UTC days and months of the platform's clock). */
export interface AgentUsage {
  dailyTransactionCount: number;
  dailySpend: number;
  dailyResetDate?: string;
  monthlySpend: number;
  monthlyResetMonth?: string;
}

/** The hosted API's Agent: bound to one customer, id `Agent:<uuid>`. */
export interface Agent {
  id: string;
  name: string;
  customerId: string;
  isPaused: boolean;
  /** Whether the agent holds an access token (a device code was redeemed). */
  isConnected: boolean;
  policy: AgentPolicy;
  usage: AgentUsage;
  createdAt: string;
  updatedAt: string;
}

/** A device code, shown once (10 minutes, single use): the agent app redeems it for its access token. */
export interface DeviceCode {
  code: string;
  agentId: string;
  expiresAt: string;
  redeemed: boolean;
}

/** `POST /agents` answers the agent and its first device code (the hosted AgentCreateResponse). */
export interface CreatedAgent {
  agent: Agent;
  deviceCode: DeviceCode;
}

/** The agent's access token (`Authorization: Bearer …` on `/agents/me/**`), its name and policy. */
export interface RedeemedDeviceCode {
  agentId: string;
  agentName: string;
  accessToken: string;
  policy: AgentPolicy;
}

export interface AgentListParams extends SortedPageParams {
  customerId?: string;
  isPaused?: boolean;
  isConnected?: boolean;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
}

/** `GET /agents/device-codes/{code}/status`: whether the agent app has redeemed the code. */
export interface DeviceCodeStatus {
  code: string;
  redeemed: boolean;
}

export type AgentActionStatus = "PENDING_APPROVAL" | "APPROVED" | "REJECTED" | "FAILED";
export type AgentActionType = "EXECUTE_QUOTE" | "TRANSFER_OUT" | "TRANSFER_IN";

export interface AgentTransferDetails {
  amount: number;
  currency: string;
  sourceAccountId: string;
  destinationAccountId: string;
}

/**
 * A payment an agent started, id `AgentAction:<uuid>`: `PENDING_APPROVAL` while its policy holds it for the
 * platform, then `APPROVED` (executed), `REJECTED` (by the platform) or `FAILED` (its quote expired).
 */
export interface AgentAction {
  id: string;
  agentId: string;
  customerId: string;
  platformCustomerId?: string;
  status: AgentActionStatus;
  type: AgentActionType;
  quote?: Quote;
  transferDetails?: AgentTransferDetails;
  transaction?: Transaction;
  rejectionReason?: string;
  createdAt: string;
  updatedAt: string;
}

export interface AgentApprovalListParams extends SortedPageParams {
  agentId?: string;
  customerId?: string;
  /** Created at or after this instant (RFC 3339 with an offset). */
  startDate?: string;
  /** Created at or before this instant. */
  endDate?: string;
}

/** `POST /agents/{agentId}/actions/{actionId}/reject`: the optional reason becomes `rejectionReason`. */
export interface RejectAgentActionBody {
  reason?: string;
}

export interface AgentActionListParams extends SortedPageParams {
  status?: AgentActionStatus;
}

/** `POST /agents/me/transfer-out`: from one of the customer's internal accounts to one of its external accounts. */
export interface AgentTransferOutBody {
  source: { accountId: string };
  destination: { accountId: string; paymentRail?: PaymentRail };
  /** Minor units of the source account's currency. */
  amount: number;
  remittanceInformation?: string;
  purposeOfPayment?: string;
}

/** `POST /agents/me/transfer-in`: from one of the customer's external accounts into one of its internal accounts. */
export interface AgentTransferInBody {
  source: { accountId: string };
  destination: { accountId: string };
  /** Minor units of the destination account's currency. */
  amount: number;
}
