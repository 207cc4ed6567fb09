import { exampleIds } from "./operation-examples-ids.js";

/** Request body examples of the sandbox simulations. */

/** A merchant whose descriptor ends in no magic suffix: the card checks alone decide (approved). */
const merchant = {
  descriptor: "CORNER GROCERY 417",
  mcc: "5411",
  country: "US",
  city: "Chicago",
  state: "IL",
};

const authorization = { amount: 4200, currency: { code: "USD" }, merchant };

/**
 * The start of next month, 06:00 UTC (past midnight in Chicago, summer or winter): advancing there closes
 * the current statement month. Computed when the document is built, so it stays ahead of the clock.
 */
function nextMonthStart(now = new Date()): string {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 6));
  return next.toISOString().replace(".000Z", "Z");
}

export const sandboxExamples: Record<string, unknown> = {
  "POST /sandbox/clock/advance": { to: nextMonthStart() },
  "POST /sandbox/send": { quoteId: exampleIds.quote, currencyCode: "USD", currencyAmount: 10000 },
  "POST /sandbox/uma/receive": {
    senderUmaAddress: "$success.usd@counterparty.sandbox.localhost",
    customerId: exampleIds.customer,
    receivingCurrencyCode: "USD",
    receivingCurrencyAmount: 5000,
  },
  "POST /sandbox/internal-accounts/{accountId}/ach-deposit": { amount: 50000 },
  "POST /sandbox/transactions/{transactionId}/refund": { outcome: "COMPLETED" },
  "POST /sandbox/customers/{customerId}/rule-based-accounts": { currency: "USD" },
  "POST /sandbox/cards/{cardId}/simulate/credit_authorization": authorization,
  "POST /sandbox/cards/{cardId}/simulate/credit_authorization_advice": authorization,
  "POST /sandbox/cards/{cardId}/simulate/financial_authorization": authorization,
  "POST /sandbox/cards/{cardId}/simulate/financial_credit_authorization": authorization,
  "POST /sandbox/cards/{cardId}/simulate/balance_inquiry": { merchant },
  "POST /sandbox/cards/{cardId}/simulate/clearing": {
    cardTransactionId: exampleIds.cardTransaction,
    amount: 4200,
  },
  "POST /sandbox/cards/{cardId}/simulate/return": {
    cardTransactionId: exampleIds.cardTransaction,
    amount: 1500,
  },
  "POST /sandbox/cards/{cardId}/simulate/return_reversal": { cardTransactionId: exampleIds.cardTransaction },
  "POST /sandbox/cards/{cardId}/simulate/authorization_advice": {
    cardTransactionId: exampleIds.cardTransaction,
    amount: 4500,
  },
  "POST /sandbox/cards/{cardId}/simulate/pin_attempt": { pin: "4821" },
  "POST /sandbox/stablecoins/{stablecoinId}/enablement": { status: "ENABLED" },
};
