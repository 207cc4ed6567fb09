import type { Executor } from "../core/db/db.js";

// The internal accounts and customers that embedded wallets belong to are customers' tables, and
// customers/ imports wallet-auth (credentials, the signed retry). So wallet-auth reads the few columns it
// needs here rather than importing customers back; it never writes these tables.

/** An internal account as wallet-auth reads it: whose it is, and whether it is a provisioned wallet. */
export interface WalletAccountRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  customer_id: string | null;
  type: string;
  status: string;
}

export async function findWalletAccount(
  db: Executor,
  platformId: string,
  id: string,
): Promise<WalletAccountRow | undefined> {
  const [row] = await db.query<WalletAccountRow>(
    "SELECT id, platform_id, customer_id, type, status FROM internal_accounts WHERE platform_id = $1 AND id = $2",
    [platformId, id],
  );
  return row;
}

/** The customer's profile (`email`, `phoneNumber`…), or undefined when there is no such customer. */
export async function findCustomerProfile(
  db: Executor,
  platformId: string,
  customerId: string,
): Promise<Record<string, unknown> | undefined> {
  const [row] = await db.query<{ profile: Record<string, unknown> }>(
    "SELECT profile FROM customers WHERE platform_id = $1 AND id = $2",
    [platformId, customerId],
  );
  return row?.profile;
}
