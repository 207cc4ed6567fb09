import type { Executor, Tx } from "../core/db/db.js";
import { listPage, type PageResult } from "../core/http/pagination.js";
import type { BeneficialOwnerPersonalInfo } from "./beneficial-owner-schemas.js";

export interface BeneficialOwnerRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  customer_id: string;
  roles: string[];
  ownership_percentage: number;
  personal_info: BeneficialOwnerPersonalInfo;
  kyc_status: string;
  created_at: Date;
  updated_at: Date;
}

export async function insertBeneficialOwner(tx: Tx, row: BeneficialOwnerRow): Promise<void> {
  await tx.query(
    `INSERT INTO beneficial_owners (id, platform_id, customer_id, roles, ownership_percentage, personal_info, kyc_status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      row.id,
      row.platform_id,
      row.customer_id,
      JSON.stringify(row.roles),
      row.ownership_percentage,
      JSON.stringify(row.personal_info),
      row.kyc_status,
      row.created_at,
      row.updated_at,
    ],
  );
}

export async function updateBeneficialOwner(tx: Tx, row: BeneficialOwnerRow): Promise<void> {
  await tx.query(
    `UPDATE beneficial_owners SET roles = $2, ownership_percentage = $3, personal_info = $4, updated_at = $5
     WHERE id = $1`,
    [
      row.id,
      JSON.stringify(row.roles),
      row.ownership_percentage,
      JSON.stringify(row.personal_info),
      row.updated_at,
    ],
  );
}

export async function findBeneficialOwner(
  db: Executor,
  platformId: string,
  id: string,
): Promise<BeneficialOwnerRow | undefined> {
  const [row] = await db.query<BeneficialOwnerRow>(
    "SELECT * FROM beneficial_owners WHERE platform_id = $1 AND id = $2",
    [platformId, id],
  );
  return row;
}

/** A customer's owners in the order they were added (the packet check and the sandbox suffix rule read them). */
export function ownersOf(db: Executor, customerId: string): Promise<BeneficialOwnerRow[]> {
  return db.query<BeneficialOwnerRow>(
    "SELECT * FROM beneficial_owners WHERE customer_id = $1 ORDER BY created_at, id",
    [customerId],
  );
}

/** Moves every owner of a business to the business's new verification status, in the caller's transaction. */
export async function setOwnersKycStatus(
  tx: Tx,
  customerId: string,
  kycStatus: string,
  now: Date,
): Promise<void> {
  await tx.query("UPDATE beneficial_owners SET kyc_status = $2, updated_at = $3 WHERE customer_id = $1", [
    customerId,
    kycStatus,
    now,
  ]);
}

export function listBeneficialOwners(
  db: Executor,
  platformId: string,
  customerId: string,
  page: { limit: number; cursor: string | undefined },
): Promise<PageResult<BeneficialOwnerRow>> {
  return listPage<BeneficialOwnerRow>({
    executor: db,
    table: "beneficial_owners",
    where: ["platform_id = $1", "customer_id = $2"],
    params: [platformId, customerId],
    scope: `beneficial-owners|${platformId}|${customerId}`,
    sortOrder: "asc",
    ...page,
  });
}
