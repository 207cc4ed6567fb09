import { type TSchema, Type } from "typebox";
import type { Executor } from "../core/db/db.js";
import { Transaction } from "../payments/schemas.js";

/** A card transaction as `GET /transactions` returns it (the cards area's wire shape). */
export type CardTransactionWire = { id: string; type: "CARD" } & Record<string, unknown>;

/**
 * The card half of the transaction view, supplied by cards at the composition root (app.ts): the view
 * reads card rows through it and imports no card code, so cards may build on payments without a circle.
 */
export interface CardRows {
  /** The wire schema of a card row. */
  schema: TSchema;
  /**
   * SQL selecting card rows as references, with the columns of the payment references in store.ts
   * (id, platform_id, kind, type, status, account_id, customer_id, reference, card_id,
   * sender_account_id, receiver_account_id, created_at).
   */
  refs: string;
  find(db: Executor, platformId: string, id: string): Promise<CardTransactionWire | undefined>;
  findMany(db: Executor, ids: string[]): Promise<CardTransactionWire[]>;
}

/** A row of `GET /transactions`: a payment transaction or a card transaction, discriminated by `type`. */
export const anyTransactionSchema = (cards: CardRows) => Type.Union([Transaction, cards.schema]);
