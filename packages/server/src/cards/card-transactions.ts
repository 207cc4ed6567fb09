import { randomBytes } from "node:crypto";
import type { Executor, Tx } from "../core/db/db.js";
import { together } from "../core/db/scope.js";
import type { Deps } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { type HoldChange, type LockedAccounts, type Posting, postBalanceChanges } from "../ledger/ledger.js";
import { cardTransactionEvent, rereadCardTransactionEvent } from "./events.js";
import type { CardTransactionStatus } from "./schemas.js";
import type { Cardholder, CardRow } from "./store.js";
import * as store from "./transaction-store.js";

export type CardTransactionRow = store.CardTransactionRow;

/** What a simulation answers (conventions §6.5): the network's token and the row created or affected. */
export interface SimulationResult {
  issuerTransactionToken: string;
  cardTransactionId: string;
}

export function simulationResult(row: CardTransactionRow): SimulationResult {
  return { issuerTransactionToken: row.issuer_transaction_token, cardTransactionId: row.id };
}

export function newIssuerToken(): string {
  return `itt_${randomBytes(12).toString("hex")}`;
}

/**
 * A card transaction of this card, locked; malformed, foreign, unknown or another card's ids are
 * `404 TRANSACTION_NOT_FOUND`.
 */
export async function findCardTransactionOrThrow(
  tx: Executor,
  caller: Caller,
  card: CardRow,
  rawId: string,
): Promise<CardTransactionRow> {
  return cardTransactionOfCard(card, rawId, await lockCardTransaction(tx, caller, rawId));
}

/** The card transaction named by `rawId`, locked, whatever its card (cardTransactionOfCard checks that). */
export async function lockCardTransaction(
  tx: Executor,
  caller: Caller,
  rawId: string,
): Promise<CardTransactionRow | undefined> {
  const id = parseId("CardTransaction", rawId);
  const row = id ? await store.findCardTransaction(tx, caller.platformId, id, true) : undefined;
  if (!row) return undefined;
  const { platform_customer_id: _, ...columns } = row;
  return columns;
}

/** `row` when it is a transaction of `card`; else `404 TRANSACTION_NOT_FOUND`. */
export function cardTransactionOfCard(
  card: CardRow,
  rawId: string,
  row: CardTransactionRow | undefined,
): CardTransactionRow {
  if (!row || row.card_id !== card.id)
    throw new ApiError("TRANSACTION_NOT_FOUND", {
      reason: `No card transaction ${rawId} on card ${card.id}.`,
    });
  return row;
}

/** A simulation precondition that does not hold: `409 CONFLICT` naming it. */
export function precondition(reason: string): ApiError {
  return new ApiError("CONFLICT", { reason });
}

/**
 * When a clearing or return is dated: `effectiveAt` if given, within [now − settlement lag, now]
 * (conventions §6.5) so that a closed statement window never changes; else now.
 */
export function effectiveAtOf(deps: Deps, now: Date, raw: string | undefined): Date {
  if (raw === undefined) return now;
  const at = new Date(raw);
  if (at.getTime() > now.getTime()) throw invalidField("effectiveAt", "must not be later than now");
  if (at.getTime() < now.getTime() - deps.settlementLagMs)
    throw invalidField(
      "effectiveAt",
      `must not be earlier than now minus the settlement lag (${deps.settlementLagMs} ms)`,
    );
  return at;
}

/** Posts a card row's money effect: holds and balance changes (fee 0) in the caller's transaction. */
export async function postCardMoney(
  tx: Tx,
  deps: Deps,
  input: {
    platformId: string;
    now: Date;
    effectiveAt?: Date;
    postings?: Posting[];
    holds?: HoldChange[];
    overdraft?: boolean;
    /** The accounts the caller already locked (lockForPosting) in this transaction. */
    locked?: LockedAccounts;
  },
): Promise<void> {
  const postings = (input.postings ?? []).filter((p) => p.amount !== 0);
  const holds = (input.holds ?? []).filter((h) => h.delta !== 0);
  if (postings.length === 0 && holds.length === 0) return;
  await postBalanceChanges(tx, {
    platformId: input.platformId,
    now: input.now,
    ...(input.effectiveAt ? { effectiveAt: input.effectiveAt } : {}),
    settlementLagMs: deps.settlementLagMs,
    postings,
    holds,
    allowOverdraft: input.overdraft ?? false,
    ...(input.locked ? { locked: input.locked } : {}),
  });
}

/**
 * Writes a changed row and enqueues its CARD_TRANSACTION.* event in the same transaction; with the
 * `cardholder` read with the card, the event is built from the row as written, without reading it again.
 */
export async function saveAndAnnounce(
  tx: Tx,
  row: CardTransactionRow,
  now: Date,
  eventStatus?: CardTransactionStatus,
  cardholder?: Cardholder,
): Promise<void> {
  const saved = { ...row, last_event_at: now, updated_at: now };
  // The event is written at the commit, so the update's answer is awaited with the event's enqueueing.
  await together(store.updateCardTransaction(tx, saved), announce(tx, saved, now, eventStatus, cardholder));
}

/** Inserts a new row and enqueues its CARD_TRANSACTION.* event. */
export async function insertAndAnnounce(
  tx: Tx,
  row: CardTransactionRow,
  now: Date,
  announceIt = true,
  cardholder?: Cardholder,
): Promise<void> {
  await store.insertCardTransaction(tx, row);
  if (announceIt) await announce(tx, row, now, undefined, cardholder);
}

function announce(
  tx: Tx,
  row: CardTransactionRow,
  now: Date,
  status: CardTransactionStatus | undefined,
  cardholder: Cardholder | undefined,
): Promise<void> {
  if (!cardholder) return rereadCardTransactionEvent(tx, row, now, status);
  return cardTransactionEvent(
    tx,
    { ...row, platform_customer_id: cardholder.platformCustomerId },
    now,
    status,
  );
}
