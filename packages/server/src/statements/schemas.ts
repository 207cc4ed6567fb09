import { type Static, Type } from "typebox";
import { Query } from "../core/http/pagination.js";
import { CurrencyAmount, DateTime } from "../core/http/schemas.js";

/** Page size of the balance-changes feed: its own range and default (conventions §3.1). */
export const BALANCE_CHANGES_DEFAULT_LIMIT = 50;
export const BALANCE_CHANGES_MAX_LIMIT = 200;
/** totalCount is exact up to this many changes and capped at it beyond (conventions §3.1). */
export const TOTAL_COUNT_CAP = 10_000;

export const BalanceChangesQuery = Query({
  from: DateTime({ description: "Window start, inclusive; RFC 3339 with an explicit offset." }),
  to: DateTime({
    description: "Window end, exclusive; not in the future, and available once card settlement closed.",
  }),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: BALANCE_CHANGES_MAX_LIMIT, default: BALANCE_CHANGES_DEFAULT_LIMIT }),
  ),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 512,
      description: "The previous page's nextCursor: a BalanceChange id of this account and window.",
    }),
  ),
});
export type BalanceChangesQuery = Static<typeof BalanceChangesQuery>;

export const BalanceChange = Type.Object({
  id: Type.String({ description: "BalanceChange:<uuid>" }),
  amount: CurrencyAmount,
  fee: CurrencyAmount,
  transactionId: Type.String({
    description: "The Transaction: or CardTransaction: id the change belongs to.",
  }),
  effectiveAt: DateTime({ description: "When the money moved; the ordering instant (UTC)." }),
});
export type BalanceChange = Static<typeof BalanceChange>;

export const BalanceChangeWindow = Type.Object({
  data: Type.Array(BalanceChange),
  openingBalance: CurrencyAmount,
  closingBalance: CurrencyAmount,
  windowStart: DateTime({ description: "`from`, with the America/Chicago offset of that instant." }),
  windowEnd: DateTime({ description: "`to` (exclusive), with the America/Chicago offset of that instant." }),
  hasMore: Type.Boolean(),
  nextCursor: Type.Optional(Type.String()),
  totalCount: Type.Integer({ minimum: 0, maximum: TOTAL_COUNT_CAP }),
  totalCountIsExact: Type.Boolean(),
});
export type BalanceChangeWindow = Static<typeof BalanceChangeWindow>;

export const StatementConfirmationBody = Type.Object(
  {
    periodStart: DateTime({
      description: "First instant of the Chicago month, with Chicago's offset: 2026-10-01T00:00:00-05:00.",
    }),
  },
  { additionalProperties: false },
);
export type StatementConfirmationBody = Static<typeof StatementConfirmationBody>;

const deliveryFields = {
  accountId: Type.String(),
  periodStart: DateTime({ description: "First instant of the month, with the America/Chicago offset." }),
  periodEnd: DateTime({ description: "First instant of the next month (exclusive), Chicago offset." }),
  fetchedAt: Type.Optional(DateTime({ description: "First successful fetch of the exact month window." })),
};

/** A statement delivery record as listed: `confirmedAt` is absent until a receipt arrives. */
export const DeliveryRecord = Type.Object({
  ...deliveryFields,
  confirmedAt: Type.Optional(DateTime({ description: "When the first receipt arrived." })),
});
export type DeliveryRecord = Static<typeof DeliveryRecord>;

/** The record a receipt returns: always confirmed. */
export const ConfirmedDeliveryRecord = Type.Object({
  ...deliveryFields,
  confirmedAt: DateTime({ description: "When the first receipt arrived; kept on repeats." }),
});
export type ConfirmedDeliveryRecord = Static<typeof ConfirmedDeliveryRecord>;
