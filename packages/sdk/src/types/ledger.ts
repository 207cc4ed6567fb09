/**
 * Wire types of transactions, balance changes, statement receipts and the sandbox clock, mirroring
 * packages/server/src/transactions/schemas.ts and conventions §3.1–§3.4 (CardTransaction is in cards.ts).
 * Re-exported from index.ts.
 */
import type { CardTransaction } from "./cards.js";
import type { CurrencyAmount, SortedPageParams } from "./common.js";

export type TransactionStatus =
  | "CREATED"
  | "PENDING"
  | "PENDING_AUTHORIZATION"
  | "PROCESSING"
  | "COMPLETED"
  | "REJECTED"
  | "FAILED"
  | "REFUNDED"
  | "EXPIRED";

export type FailureReason =
  | "QUOTE_EXPIRED"
  | "QUOTE_RATE_UNAVAILABLE"
  | "QUOTE_EXECUTION_FAILED"
  | "FUNDING_AMOUNT_MISMATCH"
  | "SCA_NOT_COMPLETED"
  | "PAYOUT_RETURNED"
  | "LIMIT_EXCEEDED"
  | "ACCOUNT_CANNOT_RECEIVE"
  | "ACCOUNT_INVALID"
  | "COMPLIANCE_REJECTED"
  | "PAYMENT_APPROVAL_WEBHOOK_ERROR"
  | "PAYMENT_APPROVAL_TIMED_OUT";

/** A payment transaction (`type` `INCOMING` or `OUTGOING`; conventions §3.4). */
export interface Transaction {
  id: string;
  type: "INCOMING" | "OUTGOING";
  status: TransactionStatus;
  direction: "CREDIT" | "DEBIT";
  /** `{sourceType: "ACCOUNT", accountId, …}`, or the UMA or `REALTIME_FUNDING` forms. */
  source: object;
  destination: object;
  customerId?: string;
  platformCustomerId?: string;
  sentAmount?: CurrencyAmount;
  receivedAmount?: CurrencyAmount;
  exchangeRate?: number;
  quoteId?: string;
  paymentRail?: string;
  railSelectionMode?: "AUTO" | "MANUAL";
  /** Shape decided by the server (conventions §3.4); a name, when present, is shown on statements. */
  counterpartyInformation?: object;
  refund?: object;
  /** Bare integer, minor units of the sending currency. */
  fees: number;
  platformFees?: number;
  failureReason?: FailureReason;
  pendingReason?: string;
  description?: string;
  remittanceInformation?: string;
  purposeOfPayment?: string;
  reference?: string;
  /** Set when the money was sent to a rule-based account and landed on its owner's account. */
  receivedThroughAccountId?: string;
  expectedSettlementAt?: string;
  settlementTimelineSeconds?: number;
  settledAt?: string;
  /** When the platform delivered the receipt to its customer (`transactions.confirm`). */
  receiptDeliveryConfirmedAt?: string;
  /** A UMA payment: the inter-VASP settlement leg's hash. */
  reconciliationInstructions?: { reference?: string; transactionHash?: string };
  createdAt: string;
  updatedAt: string;
}

/** What `GET /transactions` and `GET /transactions/{id}` return: discriminate on `type`. */
export type AnyTransaction = Transaction | CardTransaction;

/** Filters of `GET /transactions` (conventions §3.4); `status` with `type: "CARD"` is refused. */
export interface TransactionListParams extends SortedPageParams {
  customerId?: string;
  platformCustomerId?: string;
  accountIdentifier?: string;
  /** Payments whose source account is this one (both sides of a transfer); card purchases on it. */
  senderAccountIdentifier?: string;
  /** Payments whose destination account is this one (both sides of a transfer); card refunds to it. */
  receiverAccountIdentifier?: string;
  status?: TransactionStatus;
  type?: "INCOMING" | "OUTGOING" | "CARD";
  cardId?: string;
  reference?: string;
  /** A date-time with an offset (that instant), or `YYYY-MM-DD` (from the start of that UTC day); inclusive. */
  startDate?: string;
  /** A date-time with an offset (that instant), or `YYYY-MM-DD` (to the end of that UTC day); inclusive. */
  endDate?: string;
}

/** One change to an account's balance (conventions §3.1). */
export interface BalanceChange {
  id: string;
  /** Signed: the full effect on the balance, fees included. */
  amount: CurrencyAmount;
  /** The part of `amount` that was a service fee: negative when charged, positive when refunded. */
  fee: CurrencyAmount;
  /** A `Transaction:` or `CardTransaction:` id. */
  transactionId: string;
  effectiveAt: string;
}

/** `GET /internal-accounts/{id}/balance-changes` query: the half-open window `[from, to)`. */
export interface BalanceChangeParams {
  /** Date-time with an explicit offset, inclusive. */
  from: string;
  /** Date-time with an explicit offset, exclusive; not in the future. */
  to: string;
  /** 1–200 (server default 50). */
  limit?: number;
  cursor?: string;
}

/** One page of a balance-change window; the balances and window bounds are the same on every page. */
export interface BalanceChangeWindow {
  data: BalanceChange[];
  openingBalance: CurrencyAmount;
  closingBalance: CurrencyAmount;
  /** `from`, with the `America/Chicago` offset of that instant. */
  windowStart: string;
  /** `to`, in the same form; exclusive. */
  windowEnd: string;
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
  totalCountIsExact: boolean;
}

/** `POST /internal-accounts/{id}/statement-confirmations` body (conventions §3.2). */
export interface StatementConfirmationBody {
  /** First instant of a Chicago month with Chicago's offset, e.g. `2026-10-01T00:00:00-05:00`. */
  periodStart: string;
}

/** The delivery record of one account and statement period. */
export interface DeliveryRecord {
  accountId: string;
  periodStart: string;
  periodEnd: string;
  fetchedAt?: string;
  /** Absent until a receipt was sent. */
  confirmedAt?: string;
}

/** The record a receipt returns: always confirmed (the first receipt's time is kept on repeats). */
export interface ConfirmedDeliveryRecord {
  accountId: string;
  periodStart: string;
  periodEnd: string;
  fetchedAt?: string;
  confirmedAt: string;
}

/** `GET /sandbox/clock` and `POST /sandbox/clock/advance`. */
export interface SandboxClock {
  now: string;
}
