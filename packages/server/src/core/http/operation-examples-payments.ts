import { exampleIds, exampleKeys } from "./operation-examples-ids.js";

/** Request body examples of quotes, transfers, transactions, cards, invitations, agents and stablecoins. */

/** USD 100.00 from an internal account to a customer's bank account, the amount fixed on the sending side. */
const quote = {
  source: { sourceType: "ACCOUNT", accountId: exampleIds.internalAccount },
  destination: { destinationType: "ACCOUNT", accountId: exampleIds.externalAccount },
  lockedCurrencySide: "SENDING",
  lockedCurrencyAmount: 10000,
  description: "Invoice 1042",
};

const transferOut = {
  source: { accountId: exampleIds.internalAccount },
  destination: { accountId: exampleIds.externalAccount, paymentRail: "ACH" },
  amount: 25000,
  remittanceInformation: "Invoice 1042",
};

const transferIn = {
  source: { accountId: exampleIds.externalAccount },
  destination: { accountId: exampleIds.internalAccount },
  amount: 50000,
};

/** An ERC-20 contract address (lowercase: no EIP-55 checksum to get wrong). */
const ethereumAddress = "0x52908400098527886e0f7030069857d2e4169ee7";

/** Spend up to USD 500.00 a transfer, USD 2,000.00 a day; above USD 250.00 a person approves. */
const agentPolicy = {
  permissions: ["VIEW_TRANSACTIONS", "CREATE_QUOTES", "EXECUTE_QUOTES"],
  defaultExecutionMode: "AUTO",
  spendingLimits: {
    currency: "USD",
    perTransactionLimit: 50000,
    dailyLimit: 200000,
    dailyTransactionLimit: 20,
  },
  approvalThresholds: { currency: "USD", amount: 25000 },
};

export const paymentExamples: Record<string, unknown> = {
  "POST /quotes/{quoteId}/execute": {},
  "POST /agents/me/quotes": quote,
  "POST /agents/me/quotes/{quoteId}/execute": {},
  "POST /transfer-out": transferOut,
  "POST /agents/me/transfer-out": transferOut,
  "POST /transfer-in": transferIn,
  "POST /agents/me/transfer-in": transferIn,
  "POST /transactions/{transactionId}/cancel": { reason: "Requested by the customer" },
  "POST /transactions/{transactionId}/confirm": { receiptDeliveryConfirmedAt: "2026-10-14T15:04:05Z" },
  "POST /transactions/{transactionId}/reject": { reason: "Not a known supplier" },
  "POST /crypto/estimate-withdrawal-fee": {
    internalAccountId: exampleIds.internalAccount,
    currency: "USDC",
    cryptoNetwork: "BASE",
    amount: 25000000,
    destinationAddress: ethereumAddress,
  },
  "PATCH /cards/{cardId}": { status: "FROZEN" },
  "POST /cards/{cardId}/pin": { pin: "4821" },
  "POST /cards/{cardId}/tokenize": {
    walletProvider: "APPLE_PAY",
    deviceId: "device-7f3c2a91",
    walletPublicKey: exampleKeys.uncompressed,
  },
  "POST /invitations": { inviterUma: "$ada@paysvc.localhost", amountToSend: 5000 },
  "POST /invitations/{invitationCode}/claim": { inviteeUma: "$grace@paysvc.localhost" },
  "POST /agents": { customerId: exampleIds.customer, name: "Invoice assistant", policy: agentPolicy },
  "PATCH /agents/{agentId}": { isPaused: true },
  "PATCH /agents/{agentId}/policy": { defaultExecutionMode: "APPROVAL_REQUIRED" },
  "POST /agents/{agentId}/actions/{actionId}/reject": { reason: "Not a known supplier" },
  "POST /stablecoins": {
    symbol: "ACMEUSD",
    name: "Acme Dollar",
    network: "BASE",
    tokenIdentifier: ethereumAddress,
    decimals: 6,
    backingCurrency: "USD",
    supportedOperations: ["MINT", "BURN"],
  },
  "POST /stablecoins/{stablecoinId}/mints": {
    amount: "1000000000",
    fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId: exampleIds.internalAccount },
    destination: { accountId: exampleIds.internalAccount },
    description: "Treasury top-up",
  },
  "POST /stablecoins/{stablecoinId}/burns": {
    amount: "250000000",
    source: { type: "GRID_INTERNAL_ACCOUNT", accountId: exampleIds.internalAccount },
    destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: exampleIds.externalAccount, rail: "WIRE" },
    description: "Redemption",
  },
  "POST /stablecoin-provider-accounts": {
    provider: "BRALE",
    accountReference: "acct_2f9c41d7",
    networks: ["BASE"],
  },
};
