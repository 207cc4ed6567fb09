import type { Executor, Tx } from "../core/db/db.js";
import { listPage, type PageRequest, type PageResult } from "../core/http/pagination.js";
import type { CardStatus, PinStatus } from "./schemas.js";

export interface CardRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  cardholder_id: string;
  platform_card_id: string;
  status: CardStatus;
  status_reason: "ISSUER_REJECTED" | "CLOSED_BY_PLATFORM" | null;
  pin_status: PinStatus;
  pin_hash: string | null;
  pin_failed_attempts: number;
  brand: "VISA" | "MASTERCARD";
  form: "VIRTUAL";
  last4: string;
  exp_month: number;
  exp_year: number;
  funding_sources: string[];
  max_spend_per_transaction: number | null;
  currency: string;
  supports_digital_wallet_tokenization: boolean;
  processor_ref: string;
  issuer_ref: string;
  created_at: Date;
  updated_at: Date;
}

const columns = [
  "id",
  "platform_id",
  "cardholder_id",
  "platform_card_id",
  "status",
  "status_reason",
  "pin_status",
  "pin_hash",
  "pin_failed_attempts",
  "brand",
  "form",
  "last4",
  "exp_month",
  "exp_year",
  "funding_sources",
  "max_spend_per_transaction",
  "currency",
  "supports_digital_wallet_tokenization",
  "processor_ref",
  "issuer_ref",
  "created_at",
  "updated_at",
] as const;

/** jsonb goes in as text: node-pg would send a JS array as a PostgreSQL array literal. */
function values(row: CardRow): unknown[] {
  return columns.map((column) =>
    column === "funding_sources" ? JSON.stringify(row.funding_sources) : row[column],
  );
}

export async function insertCard(tx: Tx, row: CardRow): Promise<void> {
  await tx.query(
    `INSERT INTO cards (${columns.join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
    values(row),
  );
}

/** Writes every mutable column of a card (status, PIN state, funding, limit, updated_at). */
export async function updateCard(tx: Tx, row: CardRow): Promise<void> {
  await tx.query(
    `UPDATE cards SET status = $2, status_reason = $3, pin_status = $4, pin_hash = $5, pin_failed_attempts = $6,
       funding_sources = $7::jsonb, max_spend_per_transaction = $8, updated_at = $9
     WHERE id = $1`,
    [
      row.id,
      row.status,
      row.status_reason,
      row.pin_status,
      row.pin_hash,
      row.pin_failed_attempts,
      JSON.stringify(row.funding_sources),
      row.max_spend_per_transaction,
      row.updated_at,
    ],
  );
}

export async function findCard(
  db: Executor,
  platformId: string,
  id: string,
  lock = false,
): Promise<CardRow | undefined> {
  const [row] = await db.query<CardRow>(
    `SELECT * FROM cards WHERE platform_id = $1 AND id = $2${lock ? " FOR UPDATE" : ""}`,
    [platformId, id],
  );
  return row;
}

/** The cardholder as a card transaction's event shows it. */
export interface Cardholder {
  platformCustomerId: string | null;
}

/** findCard with its cardholder's platformCustomerId in the same statement (locking only the card). */
export async function findCardWithCardholder(
  db: Executor,
  platformId: string,
  id: string,
  lock = false,
): Promise<{ card: CardRow; cardholder: Cardholder } | undefined> {
  const [row] = await db.query<CardRow & { cardholder_platform_customer_id: string | null }>(
    `SELECT c.*, h.platform_customer_id AS cardholder_platform_customer_id
     FROM cards c JOIN customers h ON h.id = c.cardholder_id
     WHERE c.platform_id = $1 AND c.id = $2${lock ? " FOR UPDATE OF c" : ""}`,
    [platformId, id],
  );
  if (!row) return undefined;
  const { cardholder_platform_customer_id: platformCustomerId, ...card } = row;
  return { card: card as CardRow, cardholder: { platformCustomerId } };
}

export async function findCardByPlatformCardId(db: Executor, platformId: string, platformCardId: string) {
  const [row] = await db.query<CardRow>(
    "SELECT * FROM cards WHERE platform_id = $1 AND platform_card_id = $2",
    [platformId, platformCardId],
  );
  return row;
}

/** Live cards (not CLOSED) of the platform, and of one cardholder. */
export async function countLiveCards(
  db: Executor,
  platformId: string,
  cardholderId: string,
): Promise<{ platform: number; cardholder: number }> {
  const [row] = await db.query<{ platform: number; cardholder: number }>(
    `SELECT count(*)::int8 AS platform, count(*) FILTER (WHERE cardholder_id = $2)::int8 AS cardholder
     FROM cards WHERE platform_id = $1 AND status <> 'CLOSED'`,
    [platformId, cardholderId],
  );
  return { platform: row?.platform ?? 0, cardholder: row?.cardholder ?? 0 };
}

export interface CardFilters {
  cardholderId?: string | undefined;
  accountId?: string | undefined;
  platformCardId?: string | undefined;
  status?: CardStatus | undefined;
}

export function listCards(
  db: Executor,
  platformId: string,
  filters: CardFilters,
  page: PageRequest,
): Promise<PageResult<CardRow>> {
  const where = ["platform_id = $1"];
  const params: unknown[] = [platformId];
  const add = (sql: (n: number) => string, value: unknown) => {
    if (value === undefined) return;
    params.push(value);
    where.push(sql(params.length));
  };
  add((n) => `cardholder_id = $${n}`, filters.cardholderId);
  // An empty accountId is a value like any other (it matches no card), never an empty jsonb literal.
  const fundingSource = filters.accountId === undefined ? undefined : JSON.stringify([filters.accountId]);
  add((n) => `funding_sources @> $${n}::jsonb`, fundingSource);
  add((n) => `platform_card_id = $${n}`, filters.platformCardId);
  add((n) => `status = $${n}`, filters.status);
  return listPage<CardRow>({
    executor: db,
    table: "cards",
    where,
    params,
    scope: `cards|${platformId}|${JSON.stringify(filters)}`,
    ...page,
  });
}

export async function setCardLimits(
  tx: Tx,
  platformId: string,
  limits: { maxLiveCards: number; maxLiveCardsPerCardholder: number | null },
): Promise<void> {
  await tx.query(
    "UPDATE platforms SET max_live_cards = $2, max_live_cards_per_cardholder = $3 WHERE id = $1",
    [platformId, limits.maxLiveCards, limits.maxLiveCardsPerCardholder],
  );
}
