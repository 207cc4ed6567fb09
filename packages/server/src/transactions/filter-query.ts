import { Type } from "typebox";
import { StringEnum } from "../core/http/schemas.js";
import { transactionStatuses } from "../payments/schemas.js";

/** The hosted API's clients send date-times with an offset; a plain date keeps its meaning, a whole UTC day. */
const DateOrDateTime = (description: string) =>
  Type.Union([Type.String({ format: "date-time" }), Type.String({ format: "date" })], { description });

/**
 * The transaction filters `GET /transactions` and `GET /agents/me/transactions` share (the hosted document
 * gives both operations the same list); `listTransactions` applies them.
 */
export const TransactionFilterQuery = {
  accountIdentifier: Type.Optional(Type.String({ maxLength: 100 })),
  senderAccountIdentifier: Type.Optional(Type.String({ maxLength: 100 })),
  receiverAccountIdentifier: Type.Optional(Type.String({ maxLength: 100 })),
  status: Type.Optional(StringEnum(transactionStatuses)),
  type: Type.Optional(StringEnum(["INCOMING", "OUTGOING", "CARD"])),
  reference: Type.Optional(Type.String({ maxLength: 255 })),
  startDate: Type.Optional(
    DateOrDateTime("From this instant, or from the start of this UTC day (inclusive)"),
  ),
  endDate: Type.Optional(DateOrDateTime("Up to this instant, or to the end of this UTC day (inclusive)")),
};
