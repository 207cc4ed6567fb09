import type { Executor, Tx } from "../core/db/db.js";

// SQL of delegated keys (issue 21 §6). The card a key is for is read here with its own query, as
// account-store.ts reads internal accounts: cards import customers, which import wallet-auth.

export interface DelegatedKeyRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  account_id: string;
  card_id: string;
  /** Compressed P-256 public key, lowercase hex. */
  public_key: string;
  /** The private scalar, sealed (purpose `delegated-key`); NULL once revoked. Never returned. */
  private_key: string | null;
  nickname: string;
  status: "ACTIVE" | "REVOKED";
  created_at: Date;
  updated_at: Date;
}

/** A card as delegated keys read it: whose it is and whether it can still change. */
export interface KeyCardRow {
  [column: string]: unknown;
  id: string;
  cardholder_id: string;
  status: string;
}

export async function findKeyCard(
  db: Executor,
  platformId: string,
  id: string,
): Promise<KeyCardRow | undefined> {
  const [row] = await db.query<KeyCardRow>(
    "SELECT id, cardholder_id, status FROM cards WHERE platform_id = $1 AND id = $2",
    [platformId, id],
  );
  return row;
}

const columns = [
  "id",
  "platform_id",
  "account_id",
  "card_id",
  "public_key",
  "private_key",
  "nickname",
  "status",
  "created_at",
  "updated_at",
] as const;

export async function insertDelegatedKey(tx: Tx, row: DelegatedKeyRow): Promise<void> {
  await tx.query(
    `INSERT INTO delegated_keys (${columns.join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
    columns.map((c) => row[c]),
  );
}

export async function findDelegatedKey(
  db: Executor,
  platformId: string,
  id: string,
  lock = false,
): Promise<DelegatedKeyRow | undefined> {
  const [row] = await db.query<DelegatedKeyRow>(
    `SELECT * FROM delegated_keys WHERE platform_id = $1 AND id = $2${lock ? " FOR UPDATE" : ""}`,
    [platformId, id],
  );
  return row;
}

/** The ACTIVE key for this card and wallet, if any (at most one: `delegated_keys_one_active`). */
export async function findActiveKeyFor(
  db: Executor,
  cardId: string,
  accountId: string,
): Promise<DelegatedKeyRow | undefined> {
  const [row] = await db.query<DelegatedKeyRow>(
    "SELECT * FROM delegated_keys WHERE card_id = $1 AND account_id = $2 AND status = 'ACTIVE'",
    [cardId, accountId],
  );
  return row;
}

/** The platform's keys, oldest first, narrowed to one wallet when `accountId` is given. */
export async function listDelegatedKeys(
  db: Executor,
  platformId: string,
  accountId: string | undefined,
): Promise<DelegatedKeyRow[]> {
  return accountId === undefined
    ? db.query<DelegatedKeyRow>(
        "SELECT * FROM delegated_keys WHERE platform_id = $1 ORDER BY created_at, id",
        [platformId],
      )
    : db.query<DelegatedKeyRow>(
        "SELECT * FROM delegated_keys WHERE platform_id = $1 AND account_id = $2 ORDER BY created_at, id",
        [platformId, accountId],
      );
}

/** Marks the key REVOKED and erases its private half. */
export async function revokeDelegatedKey(tx: Tx, id: string, now: Date): Promise<void> {
  await tx.query(
    "UPDATE delegated_keys SET status = 'REVOKED', private_key = NULL, updated_at = $2 WHERE id = $1",
    [id, now],
  );
}

/** Revokes every ACTIVE key of the card and erases their private halves. */
export async function revokeKeysOfCard(tx: Tx, cardId: string, now: Date): Promise<void> {
  await tx.query(
    "UPDATE delegated_keys SET status = 'REVOKED', private_key = NULL, updated_at = $2 WHERE card_id = $1 AND status = 'ACTIVE'",
    [cardId, now],
  );
}
