import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { DateTime, errorResponses } from "../core/http/schemas.js";
import { cancelTransaction, confirmReceiptDelivery } from "./cancel.js";
import { Transaction } from "./schemas.js";
import { EstimateWithdrawalFeeBody, WithdrawalFeeEstimate } from "./withdrawal-fee-schemas.js";
import { estimateWithdrawalFee } from "./withdrawal-fees.js";

const TransactionParams = Type.Object({ transactionId: Type.String() });

/** What a platform does to one of its payment transactions (the read view is transactions/), and fee estimates. */
export const paymentTransactionRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Transactions"];

  app.post(
    "/transactions/:transactionId/cancel",
    {
      config: { permission: "TRANSACT", optionalBody: true },
      schema: {
        tags,
        description:
          "Cancels a quote's outgoing payment before it settles: FAILED (QUOTE_EXECUTION_FAILED), the debit refunded. Settled or otherwise final → 409 TRANSACTION_NOT_CANCELLABLE.",
        params: TransactionParams,
        body: Type.Object(
          { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) },
          { additionalProperties: false },
        ),
        response: { 200: Transaction, ...errorResponses },
      },
    },
    async (request) => cancelTransaction(deps, request.caller, request.params.transactionId),
  );

  app.post(
    "/transactions/:transactionId/confirm",
    {
      config: { permission: "TRANSACT", optionalBody: true },
      schema: {
        tags,
        description:
          "Records when the payment's receipt was delivered to the customer (now by default); the first confirmation is kept.",
        params: TransactionParams,
        body: Type.Object(
          { receiptDeliveryConfirmedAt: Type.Optional(DateTime()) },
          { additionalProperties: false },
        ),
        response: { 200: Transaction, ...errorResponses },
      },
    },
    async (request) =>
      confirmReceiptDelivery(
        deps,
        request.caller,
        request.params.transactionId,
        request.body?.receiptDeliveryConfirmedAt,
      ),
  );

  app.post(
    "/crypto/estimate-withdrawal-fee",
    {
      // An estimate writes nothing: read access is enough.
      config: { permission: "VIEW" },
      schema: {
        tags: ["Crypto"],
        description:
          "Estimates the fees of withdrawing a stablecoin from an internal account to an address on a network, and what arrives.",
        body: EstimateWithdrawalFeeBody,
        response: { 200: WithdrawalFeeEstimate, ...errorResponses },
      },
    },
    async (request) => estimateWithdrawalFee(deps, request.caller, request.body),
  );
};
