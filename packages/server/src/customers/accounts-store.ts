import type { Executor, Tx } from "../core/db/db.js";
import { listPage, type PageRequest, type PageResult } from "../core/http/pagination.js";

export type InternalAccountType = "INTERNAL_FIAT" | "INTERNAL_CRYPTO" | "EMBEDDED_WALLET";
export type AccountRole = "STANDARD" | "RULE_BASED" | "BULK_SETTLEMENT";

export interface InternalAccountRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  customer_id: string | null;
  type: InternalAccountType;
  role: AccountRole;
  status: string;
  currency: string;
  private_enabled: boolean | null;
  total_balance: number;
  held_amount: number;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export async function insertInternalAccount(
  tx: Tx,
  row: Omit<InternalAccountRow, "total_balance" | "held_amount" | "version">,
) {
  await tx.query(
    `INSERT INTO internal_accounts (id, platform_id, customer_id, type, role, status, currency, private_enabled, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      row.id,
      row.platform_id,
      row.customer_id,
      row.type,
      row.role,
      row.status,
      row.currency,
      row.private_enabled,
      row.created_at,
      row.updated_at,
    ],
  );
}

export async function findInternalAccount(db: Executor, platformId: string, id: string) {
  const [row] = await db.query<InternalAccountRow>(
    "SELECT * FROM internal_accounts WHERE platform_id = $1 AND id = $2",
    [platformId, id],
  );
  return row;
}

export interface AccountFilters {
  customerId?: string | undefined;
  currency?: string | undefined;
  type?: InternalAccountType | undefined;
}

function filterSql(platformId: string, owner: "customer" | "platform", filters: AccountFilters) {
  const where = [
    "platform_id = $1",
    owner === "customer" ? "customer_id IS NOT NULL" : "customer_id IS NULL",
  ];
  const params: unknown[] = [platformId];
  const add = (column: string, value: unknown) => {
    params.push(value);
    where.push(`${column} = $${params.length}`);
  };
  if (filters.customerId !== undefined) add("customer_id", filters.customerId);
  if (filters.currency !== undefined) add("currency", filters.currency);
  if (filters.type !== undefined) add("type", filters.type);
  return { where, params };
}

export function listCustomerAccounts(
  db: Executor,
  platformId: string,
  filters: AccountFilters,
  page: PageRequest,
): Promise<PageResult<InternalAccountRow>> {
  const { where, params } = filterSql(platformId, "customer", filters);
  return listPage<InternalAccountRow>({
    executor: db,
    table: "internal_accounts",
    where,
    params,
    scope: `customer-accounts|${platformId}|${filters.customerId}|${filters.currency}|${filters.type}`,
    ...page,
  });
}

export async function listPlatformAccounts(db: Executor, platformId: string, filters: AccountFilters) {
  const { where, params } = filterSql(platformId, "platform", filters);
  return db.query<InternalAccountRow>(
    `SELECT * FROM internal_accounts WHERE ${where.join(" AND ")} ORDER BY created_at, id`,
    params,
  );
}

export async function listAccountsOfCustomer(db: Executor, customerId: string) {
  return db.query<InternalAccountRow>(
    "SELECT * FROM internal_accounts WHERE customer_id = $1 ORDER BY created_at, id",
    [customerId],
  );
}

/** Sets an embedded wallet's `privateEnabled` (customers/update-account.ts); the updated row. */
export async function setPrivateEnabled(
  tx: Tx,
  platformId: string,
  id: string,
  privateEnabled: boolean,
  now: Date,
): Promise<InternalAccountRow | undefined> {
  const [row] = await tx.query<InternalAccountRow>(
    `UPDATE internal_accounts SET private_enabled = $3, updated_at = $4
     WHERE platform_id = $1 AND id = $2 RETURNING *`,
    [platformId, id, privateEnabled, now],
  );
  return row;
}

/** The customer's own (STANDARD) account in a currency, locked. */
export async function findStandardAccount(tx: Tx, customerId: string, currency: string) {
  const [row] = await tx.query<InternalAccountRow>(
    `SELECT * FROM internal_accounts WHERE customer_id = $1 AND currency = $2 AND role = 'STANDARD'
     AND type = 'INTERNAL_FIAT' ORDER BY created_at, id LIMIT 1 FOR UPDATE`,
    [customerId, currency],
  );
  return row;
}
