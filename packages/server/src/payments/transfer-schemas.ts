import { type Static, Type } from "typebox";
import { StringEnum } from "../core/http/schemas.js";
import { MAX_AMOUNT } from "../core/money.js";
import { paymentRails } from "../rails/payment-rails.js";

const Id = Type.String({ minLength: 1, maxLength: 100 });
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const Amount = Type.Integer({ minimum: 1, maximum: MAX_AMOUNT });

/** `POST /transfer-out` (deprecated; conventions §3.3): an internal account to an external bank account. */
export const TransferOutBody = Type.Object(
  {
    source: Type.Object({ accountId: Id }, { additionalProperties: false }),
    destination: Type.Object(
      { accountId: Id, paymentRail: Type.Optional(StringEnum(paymentRails)) },
      { additionalProperties: false },
    ),
    amount: Amount,
    remittanceInformation: Type.Optional(Text(80)),
    purposeOfPayment: Type.Optional(Text(100)),
  },
  { additionalProperties: false },
);
export type TransferOutBody = Static<typeof TransferOutBody>;

/** `POST /transfer-in` (deprecated): an external bank account to an internal account. */
export const TransferInBody = Type.Object(
  {
    source: Type.Object({ accountId: Id }, { additionalProperties: false }),
    destination: Type.Object({ accountId: Id }, { additionalProperties: false }),
    amount: Amount,
  },
  { additionalProperties: false },
);
export type TransferInBody = Static<typeof TransferInBody>;
