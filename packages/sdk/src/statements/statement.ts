import type { CardMerchant, Currency } from "../types/index.js";
import type { StatementPeriod } from "./period.js";

/**
 * What a line is: the transaction's type, or `FEE` for a fee shown on its own line (a split fee, or a
 * change that is wholly a fee, such as a withdrawal's fee change).
 */
export type StatementLineType = "INCOMING" | "OUTGOING" | "CARD" | "FEE" | "OTHER";

/** One line of a statement. Money is in integer minor units of `Statement.currency`. */
export interface StatementLine {
  /** Chicago calendar date of `effectiveAt`, `YYYY-MM-DD`. */
  date: string;
  effectiveAt: string;
  description: string;
  type: StatementLineType;
  /** Who was paid or paid in, when the transaction names them (Regulation E: the third party). */
  counterparty?: string;
  /** Card lines: the merchant with its city and state when the network reported them. */
  merchant?: CardMerchant;
  /** The payment rail, e.g. `ACH`, when the transaction names one. */
  rail?: string;
  /** Signed effect on the balance; the lines sum to `closingBalance − openingBalance`. */
  amount: number;
  /** The part of `amount` that is a service fee (negative when charged); 0 on a split-off principal line. */
  fee: number;
  transactionId: string;
  balanceChangeId: string;
}

/** A periodic statement of one account and one Chicago calendar month, built by `statements.build`. */
export interface Statement {
  account: {
    id: string;
    /** `****1234`: the last 4 of the funding instructions' account number, else of the id. */
    maskedNumber: string;
    customerId?: string;
    type: string;
  };
  currency: Currency;
  period: StatementPeriod;
  openingBalance: number;
  closingBalance: number;
  lines: StatementLine[];
  /**
   * Signed sums over `lines`: `credits` ≥ 0 (positive amounts), `debits` ≤ 0 (negative amounts), and
   * `fees` = Σ fee (negative when fees were charged). `openingBalance + credits + debits = closingBalance`.
   */
  totals: { credits: number; debits: number; fees: number };
  generatedAt: string;
  /** Where the customer directs questions and error claims about transfers (Regulation E). */
  questionsContact: string;
}

/** Used when the platform configures no contact; platforms should pass their support address and phone. */
export const DEFAULT_QUESTIONS_CONTACT =
  "contact customer support at the address or telephone number in your account agreement as soon as you can, and no later than 60 days after we sent the first statement on which the problem appeared.";
