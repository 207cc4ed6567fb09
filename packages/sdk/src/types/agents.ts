/**
 * Agent wire types (the platform's side), mirroring packages/server/src/agents/schemas.ts field for field
 * (docs/guides/agents.md). Re-exported from index.ts.
 */
import type { SortedPageParams } from "./common.js";

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

/** At least one field. */
export interface UpdateAgentBody {
  name?: string;
  policy?: AgentPolicyInput;
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
