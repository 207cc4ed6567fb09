import { Type } from "typebox";
import { CurrencyAmount, DateTime, StringEnum } from "../core/http/schemas.js";

export const transactionStatuses = [
  "CREATED",
  "PENDING",
  "PENDING_AUTHORIZATION",
  "PROCESSING",
  "COMPLETED",
  "REJECTED",
  "FAILED",
  "REFUNDED",
  "EXPIRED",
] as const;

export const failureReasons = [
  "QUOTE_EXPIRED",
  "QUOTE_RATE_UNAVAILABLE",
  "QUOTE_EXECUTION_FAILED",
  "FUNDING_AMOUNT_MISMATCH",
  "SCA_NOT_COMPLETED",
  "PAYOUT_RETURNED",
  "LIMIT_EXCEEDED",
  "ACCOUNT_CANNOT_RECEIVE",
  "ACCOUNT_INVALID",
  "COMPLIANCE_REJECTED",
  // An incoming UMA payment the platform did not answer (docs/guides/uma.md "Approving incoming payments").
  "PAYMENT_APPROVAL_WEBHOOK_ERROR",
  "PAYMENT_APPROVAL_TIMED_OUT",
] as const;

const Open = Type.Object({}, { additionalProperties: true });

/** A payment transaction row of `GET /transactions` (conventions §3.4). */
export const Transaction = Type.Object({
  id: Type.String(),
  type: StringEnum(["INCOMING", "OUTGOING"]),
  status: StringEnum(transactionStatuses),
  direction: StringEnum(["CREDIT", "DEBIT"]),
  source: Open,
  destination: Open,
  customerId: Type.Optional(Type.String()),
  platformCustomerId: Type.Optional(Type.String()),
  sentAmount: Type.Optional(CurrencyAmount),
  receivedAmount: Type.Optional(CurrencyAmount),
  exchangeRate: Type.Optional(Type.Number()),
  quoteId: Type.Optional(Type.String()),
  paymentRail: Type.Optional(Type.String()),
  railSelectionMode: Type.Optional(StringEnum(["AUTO", "MANUAL"])),
  counterpartyInformation: Type.Optional(Open),
  refund: Type.Optional(Open),
  fees: Type.Integer(),
  platformFees: Type.Optional(Type.Integer()),
  failureReason: Type.Optional(StringEnum(failureReasons)),
  pendingReason: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  remittanceInformation: Type.Optional(Type.String()),
  purposeOfPayment: Type.Optional(Type.String()),
  reference: Type.Optional(Type.String()),
  /** Set when the money was sent to a rule-based account and landed on its owner's account. */
  receivedThroughAccountId: Type.Optional(Type.String()),
  expectedSettlementAt: Type.Optional(DateTime()),
  settlementTimelineSeconds: Type.Optional(Type.Integer()),
  settledAt: Type.Optional(DateTime()),
  /** When the platform delivered the payment's receipt to its customer (`POST /transactions/{id}/confirm`). */
  receiptDeliveryConfirmedAt: Type.Optional(DateTime()),
  /** A UMA payment: the inter-VASP settlement leg (the spec keeps `transactionHash` for it). */
  reconciliationInstructions: Type.Optional(
    Type.Object({ reference: Type.Optional(Type.String()), transactionHash: Type.Optional(Type.String()) }),
  ),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
