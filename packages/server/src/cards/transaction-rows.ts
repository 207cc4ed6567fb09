import type { CardRows, CardTransactionWire } from "../transactions/card-rows.js";
import { CardTransaction } from "./schemas.js";
import { findCardTransaction, findCardTransactions } from "./transaction-store.js";
import { toCardTransaction } from "./wire.js";

const wire = (row: Parameters<typeof toCardTransaction>[0]) => toCardTransaction(row) as CardTransactionWire;

/**
 * Card transactions in the transaction view (`GET /transactions`): a purchase is sent by the card's account
 * and a refund received by it (the merchant has no account id).
 */
export const cardRows: CardRows = {
  schema: CardTransaction,
  refs: "SELECT id, platform_id, 'CARD' AS kind, 'CARD' AS type, status, account_id, customer_id, NULL AS reference, card_id, CASE WHEN direction = 'DEBIT' THEN account_id END AS sender_account_id, CASE WHEN direction = 'CREDIT' THEN account_id END AS receiver_account_id, created_at FROM card_transactions",
  async find(db, platformId, id) {
    const row = await findCardTransaction(db, platformId, id);
    return row && wire(row);
  },
  async findMany(db, ids) {
    return (await findCardTransactions(db, ids)).map(wire);
  },
};
