import type { OperationDocs } from "./operation-docs-types.js";

const otp =
  "**Sandbox:** the OTP code is always `000000` (real HPKE; only e-mail and SMS delivery are skipped).";

/** Embedded wallet auth, webhooks and events, agents. */
export const agentOperationDocs: OperationDocs = {
  "GET /auth/credentials": {
    id: "listAuthCredentials",
    summary: "List wallet credentials",
    response: "AuthCredentialListResponse",
  },
  "POST /auth/credentials": {
    id: "createAuthCredential",
    summary: "Add a wallet credential",
    note: otp,
  },
  "POST /auth/credentials/{id}/challenge": {
    id: "challengeAuthCredential",
    summary: "Challenge a wallet credential",
    note: otp,
  },
  "POST /auth/credentials/{id}/verify": {
    id: "verifyAuthCredential",
    summary: "Verify a wallet credential",
    note: otp,
    response: "AuthSessionOrProcessing",
  },
  "DELETE /auth/credentials/{id}": { id: "revokeAuthCredential", summary: "Revoke a wallet credential" },
  "GET /auth/sessions": {
    id: "listAuthSessions",
    summary: "List wallet sessions",
    response: "SessionListResponse",
  },
  "POST /auth/sessions/{id}/refresh": {
    id: "refreshAuthSession",
    summary: "Refresh a wallet session",
    request: "AuthSessionRefreshRequest",
    response: "AuthSession",
  },
  "DELETE /auth/sessions/{id}": { id: "revokeAuthSession", summary: "Revoke a wallet session" },
  "GET /auth/delegated-keys": {
    id: "listDelegatedKeys",
    summary: "List delegated keys",
    response: "DelegatedKeyListResponse",
  },
  "POST /auth/delegated-keys": {
    id: "createDelegatedKey",
    summary: "Create a delegated key",
    request: "DelegatedKeyCreateRequest",
    response: "DelegatedKey",
  },
  "GET /auth/delegated-keys/{id}": {
    id: "getDelegatedKeyById",
    summary: "Get a delegated key",
    response: "DelegatedKey",
  },
  "DELETE /auth/delegated-keys/{id}": { id: "revokeDelegatedKey", summary: "Revoke a delegated key" },
  "GET /webhooks/signing-keys": { id: "listWebhookSigningKeys", summary: "List webhook signing keys" },
  "GET /webhooks/deliveries": {
    id: "listWebhookDeliveries",
    summary: "List webhook deliveries",
    description: "Delivery attempts of the platform's webhook events, with response codes, newest first.",
  },
  "GET /webhooks/deliveries/{deliveryId}": {
    id: "getWebhookDelivery",
    summary: "Get a webhook delivery",
    description: "One delivery with its payload and the receiver's answer.",
  },
  "POST /webhooks/deliveries/{deliveryId}/resend": {
    id: "resendWebhookDelivery",
    summary: "Resend a webhook delivery",
  },
  "GET /events": { id: "listEvents", summary: "List webhook events" },
  "GET /events/{eventId}": { id: "getEvent", summary: "Get a webhook event" },
  "POST /agents": {
    id: "createAgent",
    summary: "Create an agent",
    request: "AgentCreateRequest",
    response: "AgentCreateResponse",
  },
  "GET /agents": {
    id: "listAgents",
    summary: "List agents",
    description: "The platform's agents.",
    response: "AgentListResponse",
  },
  "GET /agents/approvals": {
    id: "listAgentApprovals",
    summary: "List actions awaiting approval",
    response: "AgentActionListResponse",
  },
  "GET /agents/{agentId}": {
    id: "getAgentById",
    summary: "Get an agent",
    description: "One agent with its policy.",
    response: "Agent",
  },
  "PATCH /agents/{agentId}": {
    id: "updateAgent",
    summary: "Update an agent",
    description: "Changes the agent's name or status.",
    request: "AgentUpdateRequest",
    response: "Agent",
  },
  "PATCH /agents/{agentId}/policy": {
    id: "updateAgentPolicy",
    summary: "Update an agent's policy",
    request: "AgentPolicyUpdateRequest",
    response: "Agent",
  },
  "POST /agents/{agentId}/actions/{actionId}/approve": {
    id: "approveAgentAction",
    summary: "Approve an agent action",
    response: "AgentAction",
  },
  "POST /agents/{agentId}/actions/{actionId}/reject": {
    id: "rejectAgentAction",
    summary: "Reject an agent action",
    request: "AgentActionRejectRequest",
    response: "AgentAction",
  },
  "GET /agents/device-codes/{code}/status": {
    id: "getAgentDeviceCodeStatus",
    summary: "Get a device code's status",
    response: "AgentDeviceCodeStatusResponse",
  },
  "POST /agents/{agentId}/device-codes": {
    id: "regenerateAgentDeviceCode",
    summary: "Issue a device code",
    response: "AgentDeviceCode",
  },
  "DELETE /agents/{agentId}": { id: "deleteAgent", summary: "Delete an agent" },
  "POST /agents/device-codes/{code}/redeem": {
    id: "redeemAgentDeviceCode",
    summary: "Redeem a device code",
    response: "AgentDeviceCodeRedeemResponse",
  },
  "GET /agents/me": {
    id: "getAgentMe",
    summary: "Get the calling agent",
    description: "The agent the access token belongs to, with its policy.",
    response: "Agent",
  },
  "GET /agents/me/internal-accounts": {
    id: "agentListInternalAccounts",
    summary: "List the customer's internal accounts (agent)",
    description: "Internal accounts of the agent's customer.",
    response: "InternalAccountListResponse",
  },
  "GET /agents/me/external-accounts": {
    id: "agentListExternalAccounts",
    summary: "List the customer's external accounts (agent)",
    description: "External accounts of the agent's customer.",
    response: "ExternalAccountListResponse",
  },
  "POST /agents/me/external-accounts": {
    id: "agentCreateExternalAccount",
    summary: "Add an external account (agent)",
    request: "ExternalAccountCreateRequest",
    response: "ExternalAccount",
  },
  "GET /agents/me/external-accounts/{externalAccountId}": {
    id: "agentGetExternalAccount",
    summary: "Get an external account (agent)",
    description: "One external account of the agent's customer.",
    response: "ExternalAccount",
  },
  "DELETE /agents/me/external-accounts/{externalAccountId}": {
    id: "agentDeleteExternalAccount",
    summary: "Delete an external account (agent)",
  },
  "POST /agents/me/quotes": {
    id: "agentCreateQuote",
    summary: "Create a quote (agent)",
    request: "QuoteRequest",
    response: "Quote",
  },
  "GET /agents/me/quotes/{quoteId}": {
    id: "agentGetQuote",
    summary: "Get a quote (agent)",
    description: "One of the agent's quotes.",
    response: "Quote",
  },
  "POST /agents/me/quotes/{quoteId}/execute": {
    id: "agentExecuteQuote",
    summary: "Execute a quote (agent)",
    response: "AgentAction",
  },
  "GET /agents/me/actions": {
    id: "agentListActions",
    summary: "List the agent's actions",
    response: "AgentActionListResponse",
  },
  "GET /agents/me/actions/{actionId}": {
    id: "agentGetAction",
    summary: "Get an agent action",
    description: "One of the agent's actions with its approval status.",
    response: "AgentAction",
  },
  "POST /agents/me/transfer-out": {
    id: "agentCreateTransferOut",
    summary: "Transfer out (agent)",
    request: "TransferOutRequest",
    response: "AgentAction",
  },
  "POST /agents/me/transfer-in": {
    id: "agentCreateTransferIn",
    summary: "Transfer in (agent)",
    request: "TransferInRequest",
    response: "AgentAction",
  },
  "GET /agents/me/transactions": {
    id: "agentListTransactions",
    summary: "List the customer's transactions (agent)",
    description:
      "Transactions of the agent's customer, with GET /transactions' account, status, type, reference and date filters.",
    response: "TransactionListResponse",
  },
  "GET /agents/me/transactions/{transactionId}": {
    id: "agentGetTransaction",
    summary: "Get a transaction (agent)",
    description: "One transaction of the agent's customer.",
    response: "TransactionOneOf",
  },
};
