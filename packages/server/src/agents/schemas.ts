import { type Static, Type } from "typebox";
import { DateTime, StringEnum } from "../core/http/schemas.js";
import { MAX_AMOUNT } from "../core/money.js";
import { Transaction } from "../payments/schemas.js";
import { Quote } from "../quotes/schemas.js";

export const agentOperations = [
  "VIEW_ACCOUNTS",
  "VIEW_TRANSACTIONS",
  "CREATE_EXTERNAL_ACCOUNTS",
  "SEND_PAYMENTS",
] as const;

/** A per-currency ceiling on what one agent-initiated payment may send (fees included), in minor units. */
export const MaxTransactionAmount = Type.Object(
  {
    currency: Type.String({ pattern: "^[A-Z]{3,5}$" }),
    amount: Type.Integer({ minimum: 1, maximum: MAX_AMOUNT }),
  },
  { additionalProperties: false },
);

/**
 * What an agent may do (docs/decisions/agents.md). `maxTransactionAmounts` lists the only currencies it
 * may send; `requirePlatformApproval` (default true) holds its payments until `POST /transactions/{id}/approve`.
 */
export const AgentPolicyInput = Type.Object(
  {
    allowedOperations: Type.Array(StringEnum(agentOperations), {
      maxItems: agentOperations.length,
      uniqueItems: true,
    }),
    maxTransactionAmounts: Type.Optional(Type.Array(MaxTransactionAmount, { maxItems: 20 })),
    requirePlatformApproval: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type AgentPolicyInput = Static<typeof AgentPolicyInput>;

export const AgentPolicy = Type.Object({
  allowedOperations: Type.Array(StringEnum(agentOperations)),
  maxTransactionAmounts: Type.Array(Type.Object({ currency: Type.String(), amount: Type.Integer() })),
  requirePlatformApproval: Type.Boolean(),
});
export type AgentPolicy = Static<typeof AgentPolicy>;

const Name = Type.String({ minLength: 1, maxLength: 100 });

export const CreateAgentBody = Type.Object(
  { customerId: Type.String({ maxLength: 100 }), name: Name, policy: AgentPolicyInput },
  { additionalProperties: false },
);
export type CreateAgentBody = Static<typeof CreateAgentBody>;

/** `PATCH /agents/{agentId}`: the name (the policy changes through `PATCH /agents/{agentId}/policy`). */
export const UpdateAgentBody = Type.Object(
  { name: Type.Optional(Name) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateAgentBody = Static<typeof UpdateAgentBody>;

export const Agent = Type.Object({
  id: Type.String(),
  customerId: Type.String(),
  name: Type.String(),
  status: StringEnum(["ACTIVE", "REVOKED"]),
  policy: AgentPolicy,
  /** When the current access token was issued (the last device code redeemed); absent before. */
  accessTokenIssuedAt: Type.Optional(DateTime()),
  revokedAt: Type.Optional(DateTime()),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type Agent = Static<typeof Agent>;

/** A device code, shown once: the agent app redeems it for its access token. */
export const DeviceCode = Type.Object({
  agentId: Type.String(),
  code: Type.String(),
  expiresAt: DateTime(),
});
export type DeviceCode = Static<typeof DeviceCode>;

export const CreatedAgent = Type.Object({ ...Agent.properties, deviceCode: DeviceCode });

export const RedeemedDeviceCode = Type.Object({
  agentId: Type.String(),
  customerId: Type.String(),
  accessToken: Type.String(),
  tokenType: StringEnum(["Bearer"]),
});
export type RedeemedDeviceCode = Static<typeof RedeemedDeviceCode>;

export const AgentParams = Type.Object({ agentId: Type.String() });
export const DeviceCodeParams = Type.Object({ code: Type.String() });
export const AgentQuoteParams = Type.Object({ quoteId: Type.String() });

export const agentActionStatuses = ["PENDING_APPROVAL", "APPROVED", "REJECTED", "FAILED"] as const;
export const agentActionTypes = ["EXECUTE_QUOTE", "TRANSFER_OUT", "TRANSFER_IN"] as const;

/** The hosted API's AgentTransferDetails: what a transfer-in or transfer-out action moves. */
export const AgentTransferDetails = Type.Object({
  amount: Type.Integer(),
  currency: Type.String(),
  sourceAccountId: Type.String(),
  destinationAccountId: Type.String(),
});

/**
 * The hosted API's AgentAction: one payment an agent started, waiting in PENDING_APPROVAL while its policy
 * requires platform approval; APPROVED once executed, REJECTED by the platform, FAILED when it expired.
 */
export const AgentAction = Type.Object({
  id: Type.String(),
  agentId: Type.String(),
  customerId: Type.String(),
  platformCustomerId: Type.Optional(Type.String()),
  status: StringEnum(agentActionStatuses),
  type: StringEnum(agentActionTypes),
  quote: Type.Optional(Quote),
  transferDetails: Type.Optional(AgentTransferDetails),
  transaction: Type.Optional(Transaction),
  rejectionReason: Type.Optional(Type.String()),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type AgentAction = Static<typeof AgentAction>;

/** The hosted API's AgentActionRejectRequest (the body is optional). */
export const RejectActionBody = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) },
  { additionalProperties: false },
);
export type RejectActionBody = Static<typeof RejectActionBody>;

export const AgentActionParams = Type.Object({ agentId: Type.String(), actionId: Type.String() });

/** `PATCH /agents/{agentId}/policy`: the fields given replace the policy's; the others stay (at least one). */
export const UpdatePolicyBody = Type.Object(
  {
    allowedOperations: Type.Optional(AgentPolicyInput.properties.allowedOperations),
    maxTransactionAmounts: AgentPolicyInput.properties.maxTransactionAmounts,
    requirePlatformApproval: AgentPolicyInput.properties.requirePlatformApproval,
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdatePolicyBody = Static<typeof UpdatePolicyBody>;

/** The hosted API's AgentDeviceCodeStatusResponse. */
export const DeviceCodeStatus = Type.Object({ code: Type.String(), redeemed: Type.Boolean() });
export type DeviceCodeStatus = Static<typeof DeviceCodeStatus>;
