import type { Executor, Tx } from "../core/db/db.js";
import { listPage, type PageRequest, type PageResult } from "../core/http/pagination.js";
import { type TimeRange, timeRangeConditions } from "../core/http/time-range.js";
import type { KycStatus } from "./kyc-outcomes.js";

export interface CustomerProfile {
  [field: string]: unknown;
}

export interface CustomerRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  platform_customer_id: string | null;
  customer_type: "INDIVIDUAL" | "BUSINESS";
  kyc_status: KycStatus;
  uma_address: string;
  is_deleted: boolean;
  profile: CustomerProfile;
  created_at: Date;
  updated_at: Date;
}

export interface ConsentRow {
  [column: string]: unknown;
  id: string;
  customer_id: string;
  type: string;
  terms_version: string;
  accepted_at: Date;
  ip_address: string | null;
  acceptance_method: string;
  recorded_at: Date;
}

export const customerConstraints = {
  platformCustomerId: "customers_platform_customer_id_key",
  umaAddress: "customers_uma_address_key",
} as const;

export async function insertCustomer(tx: Tx, row: CustomerRow): Promise<void> {
  await tx.query(
    `INSERT INTO customers (id, platform_id, platform_customer_id, customer_type, kyc_status, uma_address, is_deleted, profile, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      row.id,
      row.platform_id,
      row.platform_customer_id,
      row.customer_type,
      row.kyc_status,
      row.uma_address,
      row.is_deleted,
      row.profile,
      row.created_at,
      row.updated_at,
    ],
  );
}

export async function updateCustomer(tx: Tx, row: CustomerRow): Promise<void> {
  await tx.query(
    `UPDATE customers SET platform_customer_id = $3, kyc_status = $4, uma_address = $5, is_deleted = $6, profile = $7, updated_at = $8
     WHERE platform_id = $1 AND id = $2`,
    [
      row.platform_id,
      row.id,
      row.platform_customer_id,
      row.kyc_status,
      row.uma_address,
      row.is_deleted,
      row.profile,
      row.updated_at,
    ],
  );
}

export async function findCustomer(db: Executor, platformId: string, id: string, lock = false) {
  const [row] = await db.query<CustomerRow>(
    `SELECT * FROM customers WHERE platform_id = $1 AND id = $2${lock ? " FOR UPDATE" : ""}`,
    [platformId, id],
  );
  return row;
}

export async function insertConsent(tx: Tx, row: ConsentRow): Promise<void> {
  await tx.query(
    `INSERT INTO agreement_consents (id, customer_id, type, terms_version, accepted_at, ip_address, acceptance_method, recorded_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      row.id,
      row.customer_id,
      row.type,
      row.terms_version,
      row.accepted_at,
      row.ip_address,
      row.acceptance_method,
      row.recorded_at,
    ],
  );
}

/** The most recent acceptance per type (by acceptedAt, then by when it was recorded). */
export async function latestConsents(db: Executor, customerIds: string[]): Promise<ConsentRow[]> {
  if (customerIds.length === 0) return [];
  return db.query<ConsentRow>(
    `SELECT DISTINCT ON (customer_id, type) * FROM agreement_consents WHERE customer_id = ANY($1)
     ORDER BY customer_id, type, accepted_at DESC, recorded_at DESC, id DESC`,
    [customerIds],
  );
}

export interface CustomerFilters extends TimeRange {
  platformCustomerId?: string | undefined;
  customerType?: string | undefined;
  kycStatus?: string | undefined;
  region?: string | undefined;
  currency?: string | undefined;
  umaAddress?: string | undefined;
  isIncludingDeleted?: boolean | undefined;
}

/** `GET /customers`: the hosted API's filters; deleted customers only with `isIncludingDeleted`. */
export function listCustomers(
  db: Executor,
  platformId: string,
  filters: CustomerFilters,
  page: PageRequest,
): Promise<PageResult<CustomerRow>> {
  const where = ["platform_id = $1"];
  const params: unknown[] = [platformId];
  const add = (condition: (n: string) => string, value: string | undefined) => {
    if (value === undefined) return;
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  add((n) => `platform_customer_id = ${n}`, filters.platformCustomerId);
  add((n) => `customer_type = ${n}`, filters.customerType);
  add((n) => `kyc_status = ${n}`, filters.kycStatus);
  add((n) => `profile->>'region' = ${n}`, filters.region);
  add((n) => `profile->'currencies' @> jsonb_build_array(${n}::text)`, filters.currency);
  add((n) => `lower(uma_address) = lower(${n})`, filters.umaAddress);
  where.push(...timeRangeConditions(filters, params));
  if (!filters.isIncludingDeleted) where.push("NOT is_deleted");
  return listPage<CustomerRow>({
    executor: db,
    table: "customers",
    where,
    params,
    scope: `customers|${platformId}|${JSON.stringify(filters)}`,
    ...page,
  });
}

/** Display names of customers (fullName, else the business's legalName), for counterparty details. */
export async function customerNames(db: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ id: string; name: string | null }>(
    `SELECT id, COALESCE(profile->>'fullName', profile->'businessInfo'->>'legalName') AS name
     FROM customers WHERE id = ANY($1)`,
    [ids],
  );
  return new Map(rows.filter((r) => r.name !== null).map((r) => [r.id, r.name as string]));
}

/** The platform's live customer receiving at `umaAddress` (UMA receiving, uma/receive.ts). */
export async function findCustomerByUmaAddress(db: Executor, platformId: string, umaAddress: string) {
  const [row] = await db.query<CustomerRow>(
    "SELECT * FROM customers WHERE platform_id = $1 AND lower(uma_address) = lower($2) AND NOT is_deleted",
    [platformId, umaAddress],
  );
  return row;
}

export interface ContactProofRow {
  [column: string]: unknown;
  customer_id: string;
  verified_email: string | null;
  verified_phone: string | null;
}

/** The contact values last proven by contact verification (src/sca keeps them in `sca_customers`). */
export async function contactProofs(db: Executor, customerIds: string[]): Promise<ContactProofRow[]> {
  if (customerIds.length === 0) return [];
  return db.query<ContactProofRow>(
    "SELECT customer_id, verified_email, verified_phone FROM sca_customers WHERE customer_id = ANY($1)",
    [customerIds],
  );
}
