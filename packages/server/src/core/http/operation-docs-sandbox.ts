import { umaCounterparty } from "./operation-docs-payments.js";
import type { OperationDocs } from "./operation-docs-types.js";

/** Merchant descriptor outcomes of card authorizations (conventions §6.5). */
const descriptorSuffixes =
  "**Sandbox:** decided by the last three characters of `merchant.descriptor` (after the card, funding source and spend limit checks): `002` DECLINED INSUFFICIENT_FUNDS; `003` DECLINED CARD_NOT_ACTIVE; `005` approved, the funding pull and hold land about 30 s later; `006` approved, its first clearing ends in EXCEPTION; `007`, `008`, `009` DECLINED with BLOCKED, UNSUPPORTED_NETWORK, OTHER; any other approved.";

const effectiveAt =
  "`effectiveAt` (optional) backdates the clearing or return, no earlier than now minus the settlement lag.";

/** The sandbox simulations; they answer 403 FORBIDDEN on a production platform. */
export const sandboxOperationDocs: OperationDocs = {
  "POST /sandbox/webhooks/test": {
    id: "sendTestWebhook",
    summary: "Send a test webhook",
    response: "TestWebhookResponse",
  },
  "GET /sandbox/clock": { id: "getSandboxClock", summary: "Get the sandbox clock" },
  "POST /sandbox/clock/advance": {
    id: "advanceSandboxClock",
    summary: "Advance the sandbox clock",
    note: "**Sandbox:** use it to close statement months, expire quotes and authorizations, and let delayed suffix outcomes (e.g. `003` payouts after about 6 minutes) happen without waiting.",
  },
  "GET /sandbox/request-log": { id: "getSandboxRequestLog", summary: "List recent API requests" },
  "POST /sandbox/send": {
    id: "sandboxSend",
    summary: "Pay a funding quote's instructions",
    request: "SandboxSendRequest",
    response: "Transaction",
  },
  "POST /sandbox/uma/receive": {
    id: "sandboxReceive",
    summary: "Receive a UMA payment from the counterparty",
    note: umaCounterparty,
    request: "SandboxUmaReceiveRequest",
  },
  "POST /sandbox/internal-accounts/{accountId}/fund": {
    id: "sandboxFundInternalAccount",
    summary: "Fund an internal account",
    note: "**Sandbox:** `amount` is an integer from 1 to 100,000,000,000 minor units.",
    request: "SandboxFundRequest",
    response: "InternalAccount",
    example: { amount: 100000 },
  },
  "POST /sandbox/internal-accounts/{accountId}/ach-deposit": {
    id: "sandboxAchDeposit",
    summary: "Simulate an incoming ACH deposit",
  },
  "POST /sandbox/transactions/{transactionId}/ach-return": {
    id: "sandboxAchReturn",
    summary: "Return an ACH deposit",
  },
  "POST /sandbox/transactions/{transactionId}/refund": {
    id: "sandboxRefundTransaction",
    summary: "Refund an incoming payment",
  },
  "POST /sandbox/customers/{customerId}/rule-based-accounts": {
    id: "sandboxCreateRuleBasedAccount",
    summary: "Open a rule-based account",
  },
  "POST /sandbox/cards/{cardId}/simulate/authorization": {
    id: "sandboxSimulateCardAuthorization",
    summary: "Simulate a card authorization",
    note: descriptorSuffixes,
    request: "SandboxCardAuthorizationRequest",
    example: {
      amount: 2500,
      currency: { code: "USD" },
      merchant: { descriptor: "COFFEE SHOP 002", mcc: "5814", country: "US" },
    },
  },
  "POST /sandbox/cards/{cardId}/simulate/credit_authorization": {
    id: "sandboxSimulateCardCreditAuthorization",
    summary: "Simulate a credit authorization",
    note: descriptorSuffixes,
  },
  "POST /sandbox/cards/{cardId}/simulate/credit_authorization_advice": {
    id: "sandboxSimulateCardCreditAuthorizationAdvice",
    summary: "Simulate a credit authorization advice",
  },
  "POST /sandbox/cards/{cardId}/simulate/financial_authorization": {
    id: "sandboxSimulateCardFinancialAuthorization",
    summary: "Simulate a financial authorization",
    note: descriptorSuffixes,
  },
  "POST /sandbox/cards/{cardId}/simulate/financial_credit_authorization": {
    id: "sandboxSimulateCardFinancialCreditAuthorization",
    summary: "Simulate a financial credit authorization",
    note: descriptorSuffixes,
  },
  "POST /sandbox/cards/{cardId}/simulate/balance_inquiry": {
    id: "sandboxSimulateCardBalanceInquiry",
    summary: "Simulate a balance inquiry",
    note: descriptorSuffixes,
    request: "SandboxCardBalanceInquiryRequest",
  },
  "POST /sandbox/cards/{cardId}/simulate/clearing": {
    id: "sandboxSimulateCardClearing",
    summary: "Simulate a clearing",
    note: `${effectiveAt} A merchant descriptor ending in \`006\` makes the first clearing end in EXCEPTION.`,
    request: "SandboxCardClearingRequest",
  },
  "POST /sandbox/cards/{cardId}/simulate/return": {
    id: "sandboxSimulateCardReturn",
    summary: "Simulate a merchant return",
    note: effectiveAt,
    request: "SandboxCardReturnRequest",
  },
  "POST /sandbox/cards/{cardId}/simulate/return_reversal": {
    id: "sandboxSimulateCardReturnReversal",
    summary: "Simulate a return reversal",
    request: "SandboxCardTransactionRefRequest",
  },
  "POST /sandbox/cards/{cardId}/simulate/authorization_advice": {
    id: "sandboxSimulateCardAuthorizationAdvice",
    summary: "Simulate an authorization advice",
    request: "SandboxCardAuthorizationAdviceRequest",
  },
  "POST /sandbox/cards/{cardId}/simulate/pin_attempt": {
    id: "sandboxSimulateCardPinAttempt",
    summary: "Simulate a PIN attempt",
    note: "**Sandbox:** three wrong PINs in a row block the card's PIN (pinStatus BLOCKED).",
  },
  "POST /sandbox/stablecoins/{stablecoinId}/enablement": {
    id: "sandboxStablecoinEnablement",
    summary: "Decide a stablecoin enablement",
  },
  "POST /sandbox/stablecoins/{stablecoinId}/provision": {
    id: "sandboxProvisionStablecoin",
    summary: "Provision a stablecoin",
  },
};
