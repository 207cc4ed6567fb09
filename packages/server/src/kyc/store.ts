import type { Executor, Tx } from "../core/db/db.js";
import { listPage, type PageResult } from "../core/http/pagination.js";
import type { DocumentType, VerificationError, VerificationStatus } from "./schemas.js";

export interface DocumentRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  customer_id: string;
  document_type: DocumentType;
  file_name: string;
  content_sha256: string;
  size_bytes: number;
  created_at: Date;
  updated_at: Date;
}

export interface VerificationRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  customer_id: string;
  status: VerificationStatus;
  errors: VerificationError[];
  created_at: Date;
  updated_at: Date;
}

export interface PageInput {
  limit: number;
  cursor: string | undefined;
  sortOrder: "asc" | "desc";
}

export const documentConstraints = { customerType: "documents_customer_type_key" } as const;

export async function insertDocument(tx: Tx, row: DocumentRow): Promise<void> {
  await tx.query(
    `INSERT INTO documents (id, platform_id, customer_id, document_type, file_name, content_sha256, size_bytes, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      row.id,
      row.platform_id,
      row.customer_id,
      row.document_type,
      row.file_name,
      row.content_sha256,
      row.size_bytes,
      row.created_at,
      row.updated_at,
    ],
  );
}

/** Replaces a document's file in place; undefined when the platform holds no such document. */
export async function replaceDocument(
  tx: Tx,
  platformId: string,
  id: string,
  file: { file_name: string; content_sha256: string; size_bytes: number; updated_at: Date },
): Promise<DocumentRow | undefined> {
  const [row] = await tx.query<DocumentRow>(
    `UPDATE documents SET file_name = $3, content_sha256 = $4, size_bytes = $5, updated_at = $6
     WHERE platform_id = $1 AND id = $2 RETURNING *`,
    [platformId, id, file.file_name, file.content_sha256, file.size_bytes, file.updated_at],
  );
  return row;
}

export async function findDocument(
  db: Executor,
  platformId: string,
  id: string,
): Promise<DocumentRow | undefined> {
  const [row] = await db.query<DocumentRow>("SELECT * FROM documents WHERE platform_id = $1 AND id = $2", [
    platformId,
    id,
  ]);
  return row;
}

/**
 * The document and its customer's kycStatus, both rows locked: a deletion and a verification submission
 * (which locks the customer) are serialized, so a packet is never judged on a document being deleted.
 */
export async function lockDocumentWithKycStatus(
  tx: Tx,
  platformId: string,
  id: string,
): Promise<{ id: string; customer_id: string; kyc_status: string } | undefined> {
  const [row] = await tx.query<{ id: string; customer_id: string; kyc_status: string }>(
    `SELECT d.id, d.customer_id, c.kyc_status FROM documents d JOIN customers c ON c.id = d.customer_id
     WHERE d.platform_id = $1 AND d.id = $2 FOR UPDATE OF d, c`,
    [platformId, id],
  );
  return row;
}

export async function deleteDocument(tx: Tx, id: string): Promise<void> {
  await tx.query("DELETE FROM documents WHERE id = $1", [id]);
}

/** The document types a customer has on file, for the packet check. */
export async function documentTypesOf(db: Executor, customerId: string): Promise<Set<string>> {
  const rows = await db.query<{ document_type: string }>(
    "SELECT document_type FROM documents WHERE customer_id = $1",
    [customerId],
  );
  return new Set(rows.map((row) => row.document_type));
}

function customerFilter(platformId: string, customerId: string | undefined) {
  const where = ["platform_id = $1"];
  const params: unknown[] = [platformId];
  if (customerId !== undefined) {
    params.push(customerId);
    where.push(`customer_id = $${params.length}`);
  }
  return { where, params };
}

export function listDocuments(
  db: Executor,
  platformId: string,
  filters: { customerId?: string | undefined },
  page: PageInput,
): Promise<PageResult<DocumentRow>> {
  return listPage<DocumentRow>({
    executor: db,
    table: "documents",
    ...customerFilter(platformId, filters.customerId),
    scope: `documents|${platformId}|${filters.customerId}`,
    ...page,
  });
}

export async function insertVerification(tx: Tx, row: VerificationRow): Promise<void> {
  await tx.query(
    `INSERT INTO verifications (id, platform_id, customer_id, status, errors, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      row.id,
      row.platform_id,
      row.customer_id,
      row.status,
      JSON.stringify(row.errors),
      row.created_at,
      row.updated_at,
    ],
  );
}

export async function findVerification(
  db: Executor,
  platformId: string,
  id: string,
): Promise<VerificationRow | undefined> {
  const [row] = await db.query<VerificationRow>(
    "SELECT * FROM verifications WHERE platform_id = $1 AND id = $2",
    [platformId, id],
  );
  return row;
}

/** Whether the customer has submitted before (skip-paperwork applies to a business's first submission). */
export async function hasVerifications(tx: Tx, customerId: string): Promise<boolean> {
  const rows = await tx.query("SELECT 1 FROM verifications WHERE customer_id = $1 LIMIT 1", [customerId]);
  return rows.length > 0;
}

export function listVerifications(
  db: Executor,
  platformId: string,
  filters: { customerId?: string | undefined; verificationStatus?: VerificationStatus | undefined },
  page: PageInput,
): Promise<PageResult<VerificationRow>> {
  const { where, params } = customerFilter(platformId, filters.customerId);
  if (filters.verificationStatus !== undefined) {
    params.push(filters.verificationStatus);
    where.push(`status = $${params.length}`);
  }
  return listPage<VerificationRow>({
    executor: db,
    table: "verifications",
    where,
    params,
    scope: `verifications|${platformId}|${filters.customerId}|${filters.verificationStatus}`,
    ...page,
  });
}
