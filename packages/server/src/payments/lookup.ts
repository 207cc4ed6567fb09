import type { Executor, Tx } from "../core/db/db.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { findTransaction, lockTransaction, type TransactionRow, type TransactionView } from "./store.js";

const notFound = (rawId: string) =>
  new ApiError("TRANSACTION_NOT_FOUND", { reason: `No transaction ${rawId}.` });

/** Reads a payment transaction; malformed, foreign or unknown ids are `404 TRANSACTION_NOT_FOUND`. */
export async function findPaymentOrThrow(
  db: Executor,
  caller: Caller,
  rawId: string,
): Promise<TransactionView> {
  const id = parseId("Transaction", rawId);
  const row = id ? await findTransaction(db, caller.platformId, id) : undefined;
  if (!row) throw notFound(rawId);
  return row;
}

/** Locks a payment transaction for a change; the same 404 as findPaymentOrThrow. */
export async function lockPaymentOrThrow(tx: Tx, caller: Caller, rawId: string): Promise<TransactionRow> {
  const id = parseId("Transaction", rawId);
  const row = id ? await lockTransaction(tx, caller.platformId, id) : undefined;
  if (!row) throw notFound(rawId);
  return row;
}
