import type { Executor } from "../core/db/db.js";
import { listPage, type PageRequest, type PageResult } from "../core/http/pagination.js";

export interface TransactionFilters {
  /** Which rows: payment transactions, card transactions, or both (conventions §3.4). */
  kinds: "PAYMENT" | "CARD" | "ALL";
  customerId?: string | undefined;
  platformCustomerId?: string | undefined;
  accountIdentifier?: string | undefined;
  senderAccountIdentifier?: string | undefined;
  receiverAccountIdentifier?: string | undefined;
  status?: string | undefined;
  type?: "INCOMING" | "OUTGOING" | undefined;
  cardId?: string | undefined;
  reference?: string | undefined;
  startDate?: Date | undefined;
  endDate?: Date | undefined;
}

export interface TransactionRef {
  [column: string]: unknown;
  id: string;
  kind: "PAYMENT" | "CARD";
  created_at: Date;
}

// Payment and card transactions paged together by (created_at, id); pages are hydrated per kind.
// The sender and receiver of a payment are its source and destination accounts.
const paymentRefs =
  "SELECT id, platform_id, 'PAYMENT' AS kind, type, status, account_id, customer_id, reference, NULL AS card_id, source->>'accountId' AS sender_account_id, destination->>'accountId' AS receiver_account_id, created_at FROM transactions";
/** One page of transaction references matching the filters, newest first unless `asc`. */
export function listTransactionRefs(
  db: Executor,
  platformId: string,
  filters: TransactionFilters,
  page: PageRequest,
  cardRefs: string,
): Promise<PageResult<TransactionRef>> {
  const sources = { PAYMENT: [paymentRefs], CARD: [cardRefs], ALL: [paymentRefs, cardRefs] }[filters.kinds];
  const where = ["platform_id = $1"];
  const params: unknown[] = [platformId];
  const add = (sql: (n: number) => string, value: unknown) => {
    if (value === undefined) return;
    params.push(value);
    where.push(sql(params.length));
  };
  add((n) => `customer_id = $${n}`, filters.customerId);
  add(
    (n) =>
      `customer_id IN (SELECT id FROM customers WHERE platform_id = $1 AND platform_customer_id = $${n})`,
    filters.platformCustomerId,
  );
  add((n) => `account_id = $${n}`, filters.accountIdentifier);
  add((n) => `sender_account_id = $${n}`, filters.senderAccountIdentifier);
  add((n) => `receiver_account_id = $${n}`, filters.receiverAccountIdentifier);
  add((n) => `status = $${n}`, filters.status);
  add((n) => `type = $${n}`, filters.type);
  add((n) => `card_id = $${n}`, filters.cardId);
  add((n) => `reference = $${n}`, filters.reference);
  add((n) => `created_at >= $${n}`, filters.startDate);
  add((n) => `created_at <= $${n}`, filters.endDate);
  return listPage<TransactionRef>({
    executor: db,
    table: `(${sources.join(" UNION ALL ")}) AS rows`,
    where,
    params,
    scope: `transactions|${platformId}|${JSON.stringify(filters)}`,
    ...page,
  });
}
