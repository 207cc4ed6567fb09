import { type Static, type TSchema, Type } from "typebox";
import { PageQuery, Query, SortQuery } from "../core/http/pagination.js";
import { DateTime, StringEnum } from "../core/http/schemas.js";
import { MAX_AMOUNT } from "../core/money.js";
import { Transaction } from "../payments/schemas.js";
import { Quote } from "../quotes/schemas.js";
import { TransactionFilterQuery } from "../transactions/filter-query.js";

/** The hosted API's AgentPermission: what an agent's policy lets it do (docs/decisions.md, Agents). */
export const agentPermissions = [
  "VIEW_TRANSACTIONS",
  "CREATE_TRANSFERS",
  "CREATE_QUOTES",
  "EXECUTE_QUOTES",
  "MANAGE_EXTERNAL_ACCOUNTS",
] as const;
export const executionModes = ["AUTO", "APPROVAL_REQUIRED"] as const;

const Currency = Type.String({ pattern: "^[A-Z]{3,5}$" });
const Limit = Type.Integer({ minimum: 0, maximum: MAX_AMOUNT });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const AccountId = Type.String({ minLength: 1, maxLength: 100 });

/** Per-payment, daily and monthly ceilings in one currency, minor units; payments in another currency are refused. */
const spendingLimitFields = {
  currency: Currency,
  perTransactionLimit: Limit,
  dailyLimit: Type.Optional(Nullable(Limit)),
  dailyTransactionLimit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  monthlyLimit: Type.Optional(Nullable(Limit)),
};
export const SpendingLimitsInput = Type.Object(spendingLimitFields, { additionalProperties: false });
export const SpendingLimitsUpdate = Type.Object(
  {
    currency: Type.Optional(Currency),
    perTransactionLimit: Type.Optional(Limit),
    dailyLimit: spendingLimitFields.dailyLimit,
    dailyTransactionLimit: spendingLimitFields.dailyTransactionLimit,
    monthlyLimit: spendingLimitFields.monthlyLimit,
  },
  { additionalProperties: false },
);
export type SpendingLimitsUpdate = Static<typeof SpendingLimitsUpdate>;

export const AccountRestrictionsInput = Type.Object(
  {
    allowedAccountIds: Type.Optional(Nullable(Type.Array(AccountId, { maxItems: 100, uniqueItems: true }))),
    accountRules: Type.Optional(
      Type.Array(
        Type.Object(
          {
            accountId: AccountId,
            executionMode: Type.Optional(StringEnum(executionModes)),
            perTransactionLimit: Type.Optional(Nullable(Limit)),
          },
          { additionalProperties: false },
        ),
        { maxItems: 100 },
      ),
    ),
  },
  { additionalProperties: false },
);
export const ApprovalThresholdsInput = Type.Object(
  { currency: Type.Optional(Currency), amount: Type.Optional(Nullable(Limit)) },
  { additionalProperties: false },
);

const permissionList = Type.Array(StringEnum(agentPermissions), {
  maxItems: agentPermissions.length,
  uniqueItems: true,
});

/** The hosted API's AgentPolicy as a request body (create). */
export const AgentPolicyInput = Type.Object(
  {
    permissions: permissionList,
    defaultExecutionMode: StringEnum(executionModes),
    spendingLimits: SpendingLimitsInput,
    accountRestrictions: Type.Optional(AccountRestrictionsInput),
    approvalThresholds: Type.Optional(ApprovalThresholdsInput),
  },
  { additionalProperties: false },
);
export type AgentPolicyInput = Static<typeof AgentPolicyInput>;

/** The hosted API's AgentPolicy as stored and answered. */
export const AgentPolicy = Type.Object({
  permissions: Type.Array(StringEnum(agentPermissions)),
  defaultExecutionMode: StringEnum(executionModes),
  spendingLimits: Type.Object({
    currency: Type.String(),
    perTransactionLimit: Type.Integer(),
    dailyLimit: Type.Optional(Nullable(Type.Integer())),
    dailyTransactionLimit: Type.Optional(Type.Integer()),
    monthlyLimit: Type.Optional(Nullable(Type.Integer())),
  }),
  accountRestrictions: Type.Optional(
    Type.Object({
      allowedAccountIds: Type.Optional(Nullable(Type.Array(Type.String()))),
      accountRules: Type.Optional(
        Type.Array(
          Type.Object({
            accountId: Type.String(),
            executionMode: Type.Optional(StringEnum(executionModes)),
            perTransactionLimit: Type.Optional(Nullable(Type.Integer())),
          }),
        ),
      ),
    }),
  ),
  approvalThresholds: Type.Optional(
    Type.Object({ currency: Type.Optional(Type.String()), amount: Type.Optional(Nullable(Type.Integer())) }),
  ),
});
export type AgentPolicy = Static<typeof AgentPolicy>;

const Name = Type.String({ minLength: 1, maxLength: 100 });

/** The hosted API's AgentCreateRequest. */
export const CreateAgentBody = Type.Object(
  { customerId: Type.String({ maxLength: 100 }), name: Name, policy: AgentPolicyInput },
  { additionalProperties: false },
);
export type CreateAgentBody = Static<typeof CreateAgentBody>;

/** The hosted API's AgentUpdateRequest (the policy changes through `PATCH /agents/{agentId}/policy`). */
export const UpdateAgentBody = Type.Object(
  { name: Type.Optional(Name), isPaused: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateAgentBody = Static<typeof UpdateAgentBody>;

/** The hosted API's AgentUsage: what the agent has spent today and this month (UTC, the platform's clock). */
export const AgentUsage = Type.Object({
  dailyTransactionCount: Type.Integer(),
  dailySpend: Type.Integer(),
  dailyResetDate: Type.Optional(Type.String({ format: "date" })),
  monthlySpend: Type.Integer(),
  monthlyResetMonth: Type.Optional(Type.String({ pattern: "^[0-9]{4}-[0-9]{2}$" })),
});
export type AgentUsage = Static<typeof AgentUsage>;

/** The hosted API's Agent. */
export const Agent = Type.Object({
  id: Type.String(),
  name: Type.String(),
  customerId: Type.String(),
  isPaused: Type.Boolean(),
  /** Whether the agent holds an access token (a device code was redeemed). */
  isConnected: Type.Boolean(),
  policy: AgentPolicy,
  usage: AgentUsage,
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type Agent = Static<typeof Agent>;

/** The hosted API's AgentDeviceCode: shown once; the agent app redeems it for its access token. */
export const DeviceCode = Type.Object({
  code: Type.String(),
  agentId: Type.String(),
  expiresAt: DateTime(),
  redeemed: Type.Boolean(),
});
export type DeviceCode = Static<typeof DeviceCode>;

/** The hosted API's AgentCreateResponse. */
export const CreatedAgent = Type.Object({ agent: Agent, deviceCode: DeviceCode });
export type CreatedAgent = Static<typeof CreatedAgent>;

/** The hosted API's AgentDeviceCodeRedeemResponse. */
export const RedeemedDeviceCode = Type.Object({
  agentId: Type.String(),
  agentName: Type.String(),
  accessToken: Type.String(),
  policy: AgentPolicy,
});
export type RedeemedDeviceCode = Static<typeof RedeemedDeviceCode>;

export const AgentParams = Type.Object({ agentId: Type.String() });
export const DeviceCodeParams = Type.Object({ code: Type.String() });
export const AgentQuoteParams = Type.Object({ quoteId: Type.String() });

/** `GET /agents/me/transactions`: `GET /transactions`' filters, the customer fixed to the agent's. */
export const AgentTransactionsQuery = Query({ ...TransactionFilterQuery, ...PageQuery, ...SortQuery });
export type AgentTransactionsQuery = Static<typeof AgentTransactionsQuery>;

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
  /** Absent when the customer has none (a customer's platformCustomerId is optional). */
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

/** The hosted API's AgentPolicyUpdateRequest: the fields given replace the policy's (spendingLimits merged). */
export const UpdatePolicyBody = Type.Object(
  {
    permissions: Type.Optional(permissionList),
    defaultExecutionMode: Type.Optional(StringEnum(executionModes)),
    spendingLimits: Type.Optional(SpendingLimitsUpdate),
    accountRestrictions: Type.Optional(AccountRestrictionsInput),
    approvalThresholds: Type.Optional(ApprovalThresholdsInput),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdatePolicyBody = Static<typeof UpdatePolicyBody>;

/** The hosted API's AgentDeviceCodeStatusResponse. */
export const DeviceCodeStatus = Type.Object({ code: Type.String(), redeemed: Type.Boolean() });
export type DeviceCodeStatus = Static<typeof DeviceCodeStatus>;
