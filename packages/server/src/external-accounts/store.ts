import type { Executor, Tx } from "../core/db/db.js";
import { listPage, type PageRequest, type PageResult } from "../core/http/pagination.js";
import type { BankValidation } from "./schemas.js";

export interface ExternalAccountRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  customer_id: string | null;
  status: string;
  currency: string;
  account_type: string;
  identity: string;
  account_info: Record<string, unknown> & { accountType: string };
  ownership_type: string | null;
  platform_account_id: string | null;
  default_uma_deposit_account: boolean;
  deleted_at: Date | null;
  /** Trusted beneficiary since (src/sca/beneficiaries.ts); null when not trusted. */
  trusted_at?: Date | null;
  /** USD accounts validated by micro-entries (bank-validation.ts); null otherwise. */
  bank_validation?: BankValidation | null;
  created_at: Date;
  updated_at: Date;
}

export const equivalentConstraint = "external_accounts_equivalent_key";

export async function insertExternalAccount(tx: Tx, row: ExternalAccountRow): Promise<void> {
  await tx.query(
    `INSERT INTO external_accounts (id, platform_id, customer_id, status, currency, account_type, identity, account_info,
       ownership_type, platform_account_id, default_uma_deposit_account, deleted_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      row.id,
      row.platform_id,
      row.customer_id,
      row.status,
      row.currency,
      row.account_type,
      row.identity,
      row.account_info,
      row.ownership_type,
      row.platform_account_id,
      row.default_uma_deposit_account,
      row.deleted_at,
      row.created_at,
      row.updated_at,
    ],
  );
}

export async function updateStatus(
  tx: Tx,
  id: string,
  status: string,
  now: Date,
): Promise<ExternalAccountRow> {
  const [row] = await tx.query<ExternalAccountRow>(
    "UPDATE external_accounts SET status = $2, updated_at = $3 WHERE id = $1 RETURNING *",
    [id, status, now],
  );
  if (!row) throw new Error(`external account ${id} vanished`);
  return row;
}

export async function markDeleted(tx: Tx, id: string, now: Date): Promise<void> {
  await tx.query("UPDATE external_accounts SET deleted_at = $2, updated_at = $2 WHERE id = $1", [id, now]);
}

/** A live (not deleted) account of the platform; `owner` null means platform-owned. */
export async function findExternalAccount(db: Executor, platformId: string, id: string, lock = false) {
  const [row] = await db.query<ExternalAccountRow>(
    `SELECT * FROM external_accounts WHERE platform_id = $1 AND id = $2 AND deleted_at IS NULL${lock ? " FOR UPDATE" : ""}`,
    [platformId, id],
  );
  return row;
}

export function listExternalAccounts(
  db: Executor,
  platformId: string,
  filters: { owner: "customer" | "platform"; customerId?: string | undefined; currency?: string | undefined },
  page: PageRequest,
): Promise<PageResult<ExternalAccountRow>> {
  const where = [
    "platform_id = $1",
    "deleted_at IS NULL",
    filters.owner === "customer" ? "customer_id IS NOT NULL" : "customer_id IS NULL",
  ];
  const params: unknown[] = [platformId];
  if (filters.customerId !== undefined) {
    params.push(filters.customerId);
    where.push(`customer_id = $${params.length}`);
  }
  if (filters.currency !== undefined) {
    params.push(filters.currency);
    where.push(`currency = $${params.length}`);
  }
  return listPage<ExternalAccountRow>({
    executor: db,
    table: "external_accounts",
    where,
    params,
    scope: `external-accounts|${platformId}|${filters.owner}|${filters.customerId}|${filters.currency}`,
    ...page,
  });
}

/** Sets a bank account's status and validation progress together (bank-validation.ts). */
export async function setBankValidation(
  tx: Tx,
  id: string,
  status: string,
  bankValidation: BankValidation | null,
  now: Date,
): Promise<ExternalAccountRow> {
  const [row] = await tx.query<ExternalAccountRow>(
    "UPDATE external_accounts SET status = $2, bank_validation = $3::jsonb, updated_at = $4 WHERE id = $1 RETURNING *",
    [id, status, bankValidation === null ? null : JSON.stringify(bankValidation), now],
  );
  if (!row) throw new Error(`external account ${id} vanished`);
  return row;
}

export type ExternalAccountLookupRow = {
  id: string;
  platform_id: string;
  account_id: string;
  customer_id: string | null;
  sender_uma_address: string | null;
  created_at: Date;
};

export async function insertLookup(tx: Tx, row: ExternalAccountLookupRow): Promise<void> {
  await tx.query(
    `INSERT INTO external_account_lookups (id, platform_id, account_id, customer_id, sender_uma_address, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [row.id, row.platform_id, row.account_id, row.customer_id, row.sender_uma_address, row.created_at],
  );
}

export async function findLookup(
  db: Executor,
  platformId: string,
  id: string,
): Promise<ExternalAccountLookupRow | undefined> {
  const [row] = await db.query<ExternalAccountLookupRow>(
    "SELECT * FROM external_account_lookups WHERE platform_id = $1 AND id = $2",
    [platformId, id],
  );
  return row;
}
