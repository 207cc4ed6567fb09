import type { Tx } from "../core/db/db.js";
import { together } from "../core/db/scope.js";
import { newId, parseId } from "../core/ids.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import { customerNames } from "../customers/store.js";
import { lockForPosting, postBalanceChanges } from "../ledger/ledger.js";
import { requireActive } from "../quotes/active.js";
import * as quotes from "../quotes/store.js";
import type { ExecuteOptions, ExecutionContext } from "./execution-context.js";
import { completePending, insertPayment, insertPayments, paymentFromQuote } from "./lifecycle.js";
import { settlePayout } from "./payouts.js";
import type { TransactionRow } from "./store.js";
import { isUmaSend, settleUmaSend } from "./uma-payments.js";

/**
 * Executes a PENDING quote inside the caller's transaction (the quote row already locked or just
 * inserted): the gates first (one may hold the quote), then a payout (payouts.ts) or a transfer between
 * internal accounts. Answers the quote as it now stands.
 */
export async function executeQuote(
  tx: Tx,
  context: ExecutionContext,
  quote: quotes.QuoteRow,
  options: ExecuteOptions = {},
): Promise<quotes.QuoteRow> {
  const umaSend = isUmaSend(quote);
  if (quote.source_account_id === null || (quote.destination_account_id === null && !umaSend))
    throw new Error(`quote ${quote.id} is not a transfer between accounts`);
  for (const gate of context.gates) {
    const outcome = await gate(tx, context, quote, options);
    if (outcome) return outcome.held;
  }
  if (umaSend) return settleUmaSend(tx, context, quote, options);
  if (parseId("ExternalAccount", quote.destination_account_id as string))
    return settlePayout(tx, context, quote, options);
  return settleTransfer(tx, context, quote, options.pending);
}

/**
 * A transfer between internal accounts: both accounts locked (in id order, so opposite transfers cannot
 * deadlock) and checked ACTIVE under the lock, the two balance changes (the ledger refuses an overdraft
 * with INSUFFICIENT_FUNDS), the sender's OUTGOING and the receiver's INCOMING transaction, both
 * COMPLETED with their events, and the quote → COMPLETED.
 */
async function settleTransfer(
  tx: Tx,
  { now }: ExecutionContext,
  quote: quotes.QuoteRow,
  pending: TransactionRow | undefined,
): Promise<quotes.QuoteRow> {
  const sourceId = quote.source_account_id as string;
  const destinationId = quote.destination_account_id as string;
  const locked = await lockForPosting(tx, quote.platform_id, [sourceId, destinationId]);
  const sender = locked.get(sourceId) as InternalAccountRow;
  const receiver = locked.get(destinationId) as InternalAccountRow;
  requireActive(sender);
  requireActive(receiver);
  const owners = [sender.customer_id, receiver.customer_id].filter((id): id is string => id !== null);
  const names = await customerNames(tx, owners);
  // Each side names the other party, as a periodic statement must (Regulation E).
  const party = (account: InternalAccountRow) => {
    const name = account.customer_id ? names.get(account.customer_id) : undefined;
    return { counterpartyInformation: name ? { name, accountId: account.id } : { accountId: account.id } };
  };
  const outgoing = paymentFromQuote(quote, "COMPLETED", { now, settled_at: now });
  const incoming: TransactionRow = {
    ...outgoing,
    id: newId("Transaction"),
    type: "INCOMING",
    account_id: receiver.id,
    customer_id: receiver.customer_id,
    currency: quote.receiving_currency,
    sent_amount: null,
    received_amount: quote.total_receiving_amount,
    fees: 0,
    platform_fees: 0,
    details: { ...outgoing.details, ...party(sender) },
  };
  outgoing.details = { ...outgoing.details, ...party(receiver) };
  const payments = async () => {
    if (!pending) return insertPayments(tx, [outgoing, incoming]);
    await completePending(tx, pending, outgoing);
    await insertPayment(tx, incoming);
  };
  // The postings, the payments and the quote's update need nothing from each other: they go out together
  // (issue 20); a refused posting (INSUFFICIENT_FUNDS) still rolls all of it back.
  const [, , completed] = await together(
    postBalanceChanges(tx, {
      platformId: quote.platform_id,
      now,
      locked,
      postings: [
        // 0 - fee rather than -fee: no fee is 0, not -0.
        {
          accountId: sender.id,
          amount: -quote.total_sending_amount,
          fee: 0 - quote.fees_included,
          transactionId: outgoing.id,
        },
        { accountId: receiver.id, amount: quote.total_receiving_amount, fee: 0, transactionId: incoming.id },
      ],
    }),
    payments(),
    quotes.updateQuoteStatus(tx, quote.id, { status: "COMPLETED", now }),
  );
  return completed;
}
