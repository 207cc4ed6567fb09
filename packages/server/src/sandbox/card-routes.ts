import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { type TSchema, Type } from "typebox";
import { adviseAuthorization } from "../cards/advice.js";
import { type OpeningMessage, openCardTransaction } from "../cards/authorize.js";
import { clearCardTransaction } from "../cards/clearing.js";
import { returnPurchase, reverseReturn } from "../cards/returns.js";
import { CardParams, Merchant } from "../cards/schemas.js";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";

const config = { sandbox: true };
const tags = ["Sandbox"];
const Amount = (minimum: number) => Type.Integer({ minimum, maximum: 100_000_000_000 });
const TransactionRef = Type.String({ minLength: 1, maxLength: 100 });
const EffectiveAt = Type.Optional(Type.String({ format: "date-time" }));

export const SimulationResult = Type.Object({
  issuerTransactionToken: Type.String(),
  cardTransactionId: Type.String(),
});

const Opening = Type.Object(
  {
    amount: Amount(1),
    currency: Type.Object(
      { code: Type.String({ pattern: "^[A-Z]{3,5}$" }) },
      { additionalProperties: false },
    ),
    merchant: Merchant,
  },
  { additionalProperties: false },
);

const openings: Record<string, { message: OpeningMessage; description: string }> = {
  authorization: {
    message: "AUTHORIZATION",
    description: "A purchase authorization: AUTHORIZED with a hold, or DECLINED with a cardDeclinedReason.",
  },
  credit_authorization: {
    message: "CREDIT_AUTHORIZATION",
    description: "A CREDIT row, AUTHORIZED; its clearing credits the account.",
  },
  credit_authorization_advice: {
    message: "CREDIT_AUTHORIZATION_ADVICE",
    description: "Like credit_authorization, already approved by the network: no decline checks.",
  },
  financial_authorization: {
    message: "FINANCIAL_AUTHORIZATION",
    description: "Single message: approval and clearing together, SETTLED with one debit change.",
  },
  financial_credit_authorization: {
    message: "FINANCIAL_CREDIT_AUTHORIZATION",
    description: "Single-message credit: CREDIT, SETTLED with one credit change.",
  },
};

/** Sandbox card-network simulations: `POST /sandbox/cards/{id}/simulate/<op>` → `202` (conventions §6.5). */
export const sandboxCardRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const route = <B extends TSchema>(op: string, description: string, body: B) => ({
    url: `/sandbox/cards/:cardId/simulate/${op}`,
    config,
    schema: {
      tags,
      description,
      params: CardParams,
      body,
      response: { 202: SimulationResult, ...errorResponses },
    },
  });

  for (const [op, { message, description }] of Object.entries(openings)) {
    const options = route(op, description, Opening);
    app.post(options.url, options, async (request, reply) => {
      const { amount, currency, merchant } = request.body;
      const opening = { message, amount, currencyCode: currency.code, merchant };
      return reply
        .code(202)
        .send(await openCardTransaction(deps, request.caller, request.params.cardId, opening, "DECLINE"));
    });
  }

  const inquiry = route(
    "balance_inquiry",
    "A zero-amount authorization: AUTHORIZED with amount 0 and no hold; the decline rules apply.",
    Type.Object({ merchant: Merchant }, { additionalProperties: false }),
  );
  app.post(inquiry.url, inquiry, async (request, reply) => {
    const opening = { message: "BALANCE_INQUIRY" as const, amount: 0, merchant: request.body.merchant };
    return reply
      .code(202)
      .send(await openCardTransaction(deps, request.caller, request.params.cardId, opening, "DECLINE"));
  });

  const clearing = route(
    "clearing",
    "Clears an AUTHORIZED or PARTIALLY_SETTLED row: partial → PARTIALLY_SETTLED, full → SETTLED, 0 on AUTHORIZED → VOIDED.",
    Type.Object(
      { cardTransactionId: TransactionRef, amount: Amount(0), effectiveAt: EffectiveAt },
      { additionalProperties: false },
    ),
  );
  app.post(clearing.url, clearing, async (request, reply) =>
    reply
      .code(202)
      .send(await clearCardTransaction(deps, request.caller, request.params.cardId, request.body)),
  );

  const returned = route(
    "return",
    "A merchant return of a cleared purchase: opens a CREDIT refund row; the purchase's refundedAmount grows.",
    Type.Object(
      { cardTransactionId: TransactionRef, amount: Amount(1), effectiveAt: EffectiveAt },
      { additionalProperties: false },
    ),
  );
  app.post(returned.url, returned, async (request, reply) =>
    reply.code(202).send(await returnPurchase(deps, request.caller, request.params.cardId, request.body)),
  );

  const reversal = route(
    "return_reversal",
    "Reverses a posted return: takes the refund row's id; the refund row becomes VOIDED.",
    Type.Object({ cardTransactionId: TransactionRef }, { additionalProperties: false }),
  );
  app.post(reversal.url, reversal, async (request, reply) =>
    reply.code(202).send(await reverseReturn(deps, request.caller, request.params.cardId, request.body)),
  );

  const advice = route(
    "authorization_advice",
    "Resizes an open authorization's hold to the new total.",
    Type.Object({ cardTransactionId: TransactionRef, amount: Amount(1) }, { additionalProperties: false }),
  );
  app.post(advice.url, advice, async (request, reply) =>
    reply
      .code(202)
      .send(await adviseAuthorization(deps, request.caller, request.params.cardId, request.body)),
  );
};
