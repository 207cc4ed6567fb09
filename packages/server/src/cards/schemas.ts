import { type Static, Type } from "typebox";
import { Query } from "../core/http/pagination.js";
import { CurrencyAmount, DateTime, StringEnum } from "../core/http/schemas.js";
import { MAX_AMOUNT } from "../core/money.js";

export const cardStatuses = ["PROCESSING", "ACTIVE", "FROZEN", "CLOSED"] as const;
export type CardStatus = (typeof cardStatuses)[number];
export const pinStatuses = ["NOT_SET", "OK", "BLOCKED"] as const;
export type PinStatus = (typeof pinStatuses)[number];

const AccountIds = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 10,
  uniqueItems: true,
});
const MaxSpend = Type.Integer({ minimum: 1, maximum: MAX_AMOUNT });

/** Card (conventions §6.1). Never carries a PAN, PIN, reveal URL or 3DS password. */
export const Card = Type.Object({
  id: Type.String(),
  cardholderId: Type.String(),
  platformCardId: Type.String(),
  status: StringEnum(cardStatuses),
  statusReason: Type.Union([StringEnum(["ISSUER_REJECTED", "CLOSED_BY_PLATFORM"]), Type.Null()]),
  pinStatus: StringEnum(pinStatuses),
  cardCapabilities: Type.Object({ supportsDigitalWalletTokenization: Type.Boolean() }),
  brand: StringEnum(["VISA", "MASTERCARD"]),
  form: StringEnum(["VIRTUAL"]),
  last4: Type.String(),
  expMonth: Type.Integer(),
  expYear: Type.Integer(),
  fundingSources: Type.Array(Type.String()),
  maxSpendPerTransaction: Type.Union([Type.Integer(), Type.Null()]),
  currency: Type.String(),
  processorRef: Type.String(),
  issuerRef: Type.String(),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type Card = Static<typeof Card>;

export const CreateCardBody = Type.Object(
  {
    cardholderId: Type.String({ minLength: 1, maxLength: 100 }),
    form: StringEnum(["VIRTUAL"]),
    fundingSources: AccountIds,
    platformCardId: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    maxSpendPerTransaction: Type.Optional(MaxSpend),
    /** Passed to the issuer for 3-D Secure; never stored. */
    threeDSecurePassword: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  { additionalProperties: false },
);
export type CreateCardBody = Static<typeof CreateCardBody>;

export const UpdateCardBody = Type.Object(
  {
    status: Type.Optional(StringEnum(["ACTIVE", "FROZEN", "CLOSED"])),
    fundingSources: Type.Optional(AccountIds),
    maxSpendPerTransaction: Type.Optional(Type.Union([MaxSpend, Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateCardBody = Static<typeof UpdateCardBody>;

export const CardParams = Type.Object({ cardId: Type.String() });

export const ListCardsQuery = Query({
  cardholderId: Type.Optional(Type.String({ maxLength: 100 })),
  accountId: Type.Optional(Type.String({ maxLength: 100 })),
  platformCardId: Type.Optional(Type.String({ maxLength: 255 })),
  status: Type.Optional(StringEnum(cardStatuses)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  sortOrder: Type.Optional(StringEnum(["asc", "desc"], { default: "desc" })),
});

export const cardTransactionStatuses = [
  "AUTHORIZED",
  "PARTIALLY_SETTLED",
  "SETTLED",
  "VOIDED",
  "EXCEPTION",
  "DECLINED",
] as const;
export type CardTransactionStatus = (typeof cardTransactionStatuses)[number];

export const cardDeclinedReasons = [
  "CARD_NOT_ACTIVE",
  "SPEND_LIMIT_EXCEEDED",
  "INSUFFICIENT_FUNDS",
  "NO_ELIGIBLE_FUNDING_SOURCE",
  "BLOCKED",
  "UNSUPPORTED_NETWORK",
  "OTHER",
] as const;
export type CardDeclinedReason = (typeof cardDeclinedReasons)[number];

export const Merchant = Type.Object(
  {
    descriptor: Type.String({ minLength: 1, maxLength: 100 }),
    mcc: Type.Optional(Type.String({ pattern: "^[0-9]{4}$" })),
    country: Type.Optional(Type.String({ format: "iso3166-1-alpha-2" })),
    city: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    state: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type Merchant = Static<typeof Merchant>;

// The response copy carries no `format`: the serializer's own validator, which picks the anyOf branch of
// GET /transactions rows, does not know our custom formats and would log a warning per compile.
const MerchantView = Type.Object({
  descriptor: Type.String(),
  mcc: Type.Optional(Type.String()),
  country: Type.Optional(Type.String()),
  city: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
});

const Summary = Type.Object({ count: Type.Integer(), totalAmount: Type.Integer() });

/** CardTransaction: the `type: "CARD"` row of `GET /transactions` and every CARD_TRANSACTION.* payload (§6.3). */
export const CardTransaction = Type.Object({
  id: Type.String(),
  type: StringEnum(["CARD"]),
  cardId: Type.String(),
  accountId: Type.String(),
  customerId: Type.String(),
  platformCustomerId: Type.Optional(Type.String()),
  issuerTransactionToken: Type.String(),
  status: StringEnum(cardTransactionStatuses),
  direction: StringEnum(["DEBIT", "CREDIT"]),
  merchant: MerchantView,
  authorizedAmount: CurrencyAmount,
  settledAmount: Type.Optional(CurrencyAmount),
  refundedAmount: Type.Optional(CurrencyAmount),
  originalTransactionId: Type.Optional(Type.String()),
  cardDeclinedReason: Type.Optional(StringEnum(cardDeclinedReasons)),
  pullSummary: Type.Object({
    count: Type.Integer(),
    totalAmount: Type.Integer(),
    pendingCount: Type.Optional(Type.Integer()),
  }),
  settlementSummary: Summary,
  refundSummary: Summary,
  authorizedAt: DateTime(),
  lastEventAt: DateTime(),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type CardTransaction = Static<typeof CardTransaction>;
