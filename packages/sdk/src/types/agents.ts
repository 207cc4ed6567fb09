/**
 * Agent wire types (the platform's side), mirroring packages/server/src/agents/schemas.ts field for field
 * (docs/guides/agents.md). Re-exported from index.ts.
 */
import type { SortedPageParams } from "./common.js";
import type { Transaction } from "./ledger.js";
import type { PaymentRail } from "./platform.js";
import type { Quote } from "./quotes.js";

export type AgentOperation =
  | "VIEW_ACCOUNTS"
  | "VIEW_TRANSACTIONS"
  | "CREATE_EXTERNAL_ACCOUNTS"
  | "SEND_PAYMENTS";
export type AgentStatus = "ACTIVE" | "REVOKED";

/** A per-currency ceiling on one agent-initiated payment (fees included), in minor units. */
export interface MaxTransactionAmount {
  currency: string;
  amount: number;
}

/** What an agent may do; `requirePlatformApproval` (default true) holds its payments until `transactions.approve`. */
export interface AgentPolicyInput {
  allowedOperations: AgentOperation[];
  /** The only currencies the agent may send. */
  maxTransactionAmounts?: MaxTransactionAmount[];
  requirePlatformApproval?: boolean;
}

export interface AgentPolicy {
  allowedOperations: AgentOperation[];
  maxTransactionAmounts: MaxTransactionAmount[];
  requirePlatformApproval: boolean;
}

export interface CreateAgentBody {
  customerId: string;
  name: string;
  policy: AgentPolicyInput;
}

/** `PATCH /agents/{agentId}`: the name (the policy changes with `agents.updatePolicy`). */
export interface UpdateAgentBody {
  name?: string;
}

/** `PATCH /agents/{agentId}/policy`: the fields given replace the policy's, the others stay (at least one). */
export interface UpdateAgentPolicyBody {
  allowedOperations?: AgentOperation[];
  maxTransactionAmounts?: MaxTransactionAmount[];
  requirePlatformApproval?: boolean;
}

/** An agent bound to one customer, id `Agent:<uuid>`. */
export interface Agent {
  id: string;
  customerId: string;
  name: string;
  status: AgentStatus;
  policy: AgentPolicy;
  /** When the current access token was issued (the last device code redeemed); absent before. */
  accessTokenIssuedAt?: string;
  revokedAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** A device code, shown once (10 minutes, single use): the agent app redeems it for its access token. */
export interface DeviceCode {
  agentId: string;
  code: string;
  expiresAt: string;
}

/** `POST /agents` answers the agent and its first device code. */
export interface CreatedAgent extends Agent {
  deviceCode: DeviceCode;
}

/** The agent's access token (`Authorization: Bearer …` on `/agents/me/**`). */
export interface RedeemedDeviceCode {
  agentId: string;
  customerId: string;
  accessToken: string;
  tokenType: "Bearer";
}

export interface AgentListParams extends SortedPageParams {
  customerId?: string;
  status?: AgentStatus;
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
