import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { CurrencyAmount, errorResponses, StringEnum } from "../core/http/schemas.js";
import { MAX_AMOUNT } from "../core/money.js";
import { openRuleBasedAccount } from "../customers/accounts.js";
import { InternalAccount } from "../customers/schemas.js";
import { achDeposit, fundAccount } from "../payments/deposits.js";
import { sandboxSend } from "../payments/funding.js";
import { refundIncoming } from "../payments/refunds.js";
import { returnAchDeposit } from "../payments/returns.js";
import { Transaction } from "../payments/schemas.js";

const config = { sandbox: true };
const tags = ["Sandbox"];
const AccountParams = Type.Object({ accountId: Type.String() });
const TransactionParams = Type.Object({ transactionId: Type.String() });
const Amount = Type.Object(
  { amount: Type.Integer({ minimum: 1, maximum: 100_000_000_000 }) },
  { additionalProperties: false },
);

export const Refund = Type.Object({
  transactionId: Type.String(),
  reference: Type.String(),
  amount: CurrencyAmount,
  status: StringEnum(["PENDING", "COMPLETED", "FAILED"]),
  reason: Type.Optional(Type.String()),
  initiatedAt: Type.String({ format: "date-time" }),
  settledAt: Type.Optional(Type.String({ format: "date-time" })),
});

const SendBody = Type.Object(
  {
    quoteId: Type.String({ minLength: 1, maxLength: 100 }),
    currencyCode: Type.String({ minLength: 1, maxLength: 16 }),
    currencyAmount: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_AMOUNT })),
  },
  { additionalProperties: false },
);

/** Sandbox simulations of money arriving and leaving (conventions §3.3, §3.4). */
export const sandboxMoneyRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    "/sandbox/send",
    {
      config,
      schema: {
        tags,
        description:
          "Pays a REALTIME_FUNDING quote's payment instructions: the exact amount lands on the destination account (the quote COMPLETED); another amount is sent back (FAILED, FUNDING_AMOUNT_MISMATCH).",
        body: SendBody,
        response: { 200: Transaction, ...errorResponses },
      },
    },
    async (request) => sandboxSend(deps, request.caller, request.body),
  );

  app.post(
    "/sandbox/internal-accounts/:accountId/fund",
    {
      config,
      schema: {
        tags,
        description:
          "Simulates an incoming deposit: one COMPLETED INCOMING transaction and one balance change.",
        params: AccountParams,
        body: Amount,
        response: { 200: InternalAccount, ...errorResponses },
      },
    },
    async (request) => fundAccount(deps, request.caller, request.params.accountId, request.body.amount),
  );

  app.post(
    "/sandbox/internal-accounts/:accountId/ach-deposit",
    {
      config,
      schema: {
        tags,
        description:
          "Simulates a settled incoming ACH credit (USD); it can later be returned with ach-return.",
        params: AccountParams,
        body: Amount,
        response: { 200: Transaction, ...errorResponses },
      },
    },
    async (request) => achDeposit(deps, request.caller, request.params.accountId, request.body.amount),
  );

  app.post(
    "/sandbox/transactions/:transactionId/ach-return",
    {
      config: { ...config, optionalBody: true },
      schema: {
        tags,
        description:
          "Returns a settled ACH deposit: a second, negative balance change on the same transaction, now FAILED.",
        params: TransactionParams,
        body: Type.Object({}, { additionalProperties: false }),
        response: { 200: Transaction, ...errorResponses },
      },
    },
    async (request) => returnAchDeposit(deps, request.caller, request.params.transactionId),
  );

  app.post(
    "/sandbox/transactions/:transactionId/refund",
    {
      config: { ...config, optionalBody: true },
      schema: {
        tags,
        description:
          "Refunds a completed incoming payment: REFUND_PENDING (the account is debited), then REFUND_COMPLETED or REFUND_FAILED (credited back).",
        params: TransactionParams,
        body: Type.Object(
          { outcome: Type.Optional(StringEnum(["COMPLETED", "FAILED"])) },
          { additionalProperties: false },
        ),
        response: { 200: Refund, ...errorResponses },
      },
    },
    async (request) =>
      refundIncoming(deps, request.caller, request.params.transactionId, request.body.outcome ?? "COMPLETED"),
  );

  app.post(
    "/sandbox/customers/:customerId/rule-based-accounts",
    {
      config: { ...config, optionalBody: true },
      schema: {
        tags,
        description:
          "Opens a rule-based account for a customer: money sent to it lands on the customer's own account in that currency (and its statement).",
        params: Type.Object({ customerId: Type.String() }),
        body: Type.Object(
          { currency: Type.Optional(Type.String({ pattern: "^[A-Z]{3,5}$" })) },
          { additionalProperties: false },
        ),
        response: { 201: InternalAccount, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await openRuleBasedAccount(
            deps,
            request.caller,
            request.params.customerId,
            request.body.currency ?? "USD",
          ),
        ),
  );
};
