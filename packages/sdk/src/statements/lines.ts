/**
 * Statement lines from balance changes and their transactions (interface "Periodic statement rules" 8–9,
 * "Balance change window" rules 2–4).
 */
import type { AnyTransaction, BalanceChange, CardTransaction, Transaction } from "../types/index.js";
import { exactSum } from "./money.js";
import { chicagoDate } from "./period.js";
import type { StatementLine, StatementLineType } from "./statement.js";

/** Declined authorizations never move money and never appear on a statement (rule 8; conventions §6.4). */
export function isDeclinedCard(transaction: AnyTransaction): boolean {
  return transaction.type === "CARD" && transaction.status === "DECLINED";
}

function lastFour(value: string): string {
  return value.replace(/[^0-9A-Za-z]/g, "").slice(-4);
}

const NAME_FIELDS = ["name", "fullName", "legalName", "businessName", "beneficiaryName"];

/** The other party of a payment, as well as the transaction names it. */
function counterpartyOf(transaction: Transaction): string | undefined {
  const info: Record<string, unknown> = { ...transaction.counterpartyInformation };
  for (const field of NAME_FIELDS) {
    const value = info[field];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  const side: Record<string, unknown> = {
    ...(transaction.type === "INCOMING" ? transaction.source : transaction.destination),
  };
  if (typeof side.umaAddress === "string") return side.umaAddress;
  if (typeof side.accountId === "string") return `account ending ${lastFour(side.accountId)}`;
  return undefined;
}

function merchantText(transaction: CardTransaction): string {
  const { descriptor, city, state, country } = transaction.merchant ?? { descriptor: "card merchant" };
  const place = [city, state ?? country].filter((part) => part !== undefined && part !== "").join(", ");
  return place ? `${descriptor}, ${place}` : descriptor;
}

interface Described {
  type: StatementLineType;
  description: string;
  counterparty?: string;
  merchant?: CardTransaction["merchant"];
  rail?: string;
}

/**
 * A card line's wording (conventions §6.3–§6.4): a refund row (`CREDIT` with `originalTransactionId`) is a
 * merchant return and its negative change a return reversal; a `CREDIT` row without one is a merchant
 * credit (credit authorization); a `DEBIT` row's changes are purchase clearings.
 */
function cardWording(transaction: CardTransaction, amount: number): string {
  if (transaction.direction === "CREDIT") {
    const kind = transaction.originalTransactionId ? "Card refund" : "Card credit";
    return amount < 0 ? `${kind} reversed` : kind;
  }
  return amount > 0 ? "Card purchase credit" : "Card purchase";
}

function describe(transaction: AnyTransaction, amount: number): Described {
  if (transaction.type === "CARD") {
    const what = cardWording(transaction, amount);
    return {
      type: "CARD",
      description: `${what} at ${merchantText(transaction)}`,
      ...(transaction.merchant ? { merchant: transaction.merchant } : {}),
    };
  }
  const incoming = transaction.type === "INCOMING";
  const base = transaction.description ?? (incoming ? "Incoming transfer" : "Outgoing transfer");
  // A second change against the money's direction is a return (ACH return, payout returned and refunded).
  const reversal = incoming ? amount < 0 : amount > 0;
  const counterparty = counterpartyOf(transaction);
  return {
    type: transaction.type === "INCOMING" || transaction.type === "OUTGOING" ? transaction.type : "OTHER",
    description: reversal ? `${base} (returned)` : base,
    ...(counterparty ? { counterparty } : {}),
    ...(transaction.paymentRail ? { rail: transaction.paymentRail } : {}),
  };
}

/**
 * One line per change, in the feed's order; declined card rows are left out. With `feesAsSeparateLines`
 * a change with a non-zero fee becomes `amount − fee` and `fee` (never the fee added on top: rule 3), so
 * the lines still sum to `closing − opening`. A change that is wholly a fee is one `FEE` line either way.
 */
export function toLines(
  changes: BalanceChange[],
  transactions: ReadonlyMap<string, AnyTransaction>,
  feesAsSeparateLines: boolean,
): StatementLine[] {
  const lines: StatementLine[] = [];
  for (const change of changes) {
    const transaction = transactions.get(change.transactionId);
    if (!transaction) throw new Error(`transaction ${change.transactionId} was not read`);
    if (isDeclinedCard(transaction)) continue;
    const amount = change.amount.amount;
    const fee = change.fee.amount;
    const described = describe(transaction, amount);
    const common = {
      date: chicagoDate(change.effectiveAt),
      effectiveAt: change.effectiveAt,
      transactionId: change.transactionId,
      balanceChangeId: change.id,
    };
    const feeLine: StatementLine = {
      ...common,
      ...described,
      type: "FEE",
      description: `Fee: ${described.description}`,
      amount: fee,
      fee,
    };
    if (fee !== 0 && fee === amount) lines.push(feeLine);
    else if (fee !== 0 && feesAsSeparateLines) {
      lines.push({ ...common, ...described, amount: exactSum([amount, -fee]), fee: 0 }, feeLine);
    } else lines.push({ ...common, ...described, amount, fee });
  }
  return lines;
}
