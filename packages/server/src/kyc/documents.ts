import { isUniqueViolation } from "../core/db/sqlstate.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { ErrorCode } from "../core/errors/catalogue.js";
import { sha256Hex } from "../core/hash.js";
import type { Caller } from "../core/http/context.js";
import type { PageResult } from "../core/http/pagination.js";
import { newId, parseId, sandboxSuffix } from "../core/ids.js";
import { findActiveCustomerOrThrow } from "../customers/customers.js";
import {
  type CreateDocumentBody,
  type Document,
  type DocumentType,
  MAX_DOCUMENT_BYTES,
  type ReplaceDocumentBody,
} from "./schemas.js";
import * as store from "./store.js";

/** Identity documents: an individual's packet needs one of them (decisions-kyc.md). */
export const identityDocumentTypes = [
  "PASSPORT",
  "DRIVERS_LICENSE",
  "NATIONAL_ID",
] as const satisfies readonly DocumentType[];

/** Which document types each customer type may upload; anything else is `400 UNSUITABLE_DOCUMENT`. */
export const acceptedDocumentTypes: Record<"INDIVIDUAL" | "BUSINESS", readonly DocumentType[]> = {
  INDIVIDUAL: [...identityDocumentTypes, "PROOF_OF_ADDRESS"],
  BUSINESS: ["CERTIFICATE_OF_INCORPORATION", "PROOF_OF_OWNERSHIP", "PROOF_OF_ADDRESS"],
};

export function toDocument(row: store.DocumentRow): Document {
  return {
    id: row.id,
    customerId: row.customer_id,
    documentType: row.document_type,
    fileName: row.file_name,
    sizeBytes: row.size_bytes,
    sha256: row.content_sha256,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The stored facts of an upload: only size and hash, never the bytes. The schema already checked the alphabet. */
function fileFacts(input: { fileName: string; content: string }) {
  const bytes = Buffer.from(input.content, "base64");
  if (bytes.length > MAX_DOCUMENT_BYTES) {
    throw invalidField("content", `must decode to at most ${MAX_DOCUMENT_BYTES} bytes`);
  }
  return { file_name: input.fileName, content_sha256: sha256Hex(bytes), size_bytes: bytes.length };
}

/**
 * Sandbox document verdicts (docs/decisions/bank-validation-invitations.md): the last three characters of
 * the file name without its extension (`passport-011.pdf` → `011`) pick a provider rejection.
 */
export const sandboxDocumentRejections: Readonly<Record<string, ErrorCode>> = {
  "011": "LOW_QUALITY",
  "012": "DATA_MISMATCH",
  "013": "EXPIRED",
  "014": "SUSPECTED_FRAUD",
  "015": "INCOMPLETE",
};

/** Refuses an upload the sandbox provider rejects; nothing is stored. Production has no provider yet. */
function rejectBySandboxRule(caller: Caller, fileName: string): void {
  if (caller.environment !== "SANDBOX") return;
  const dot = fileName.lastIndexOf(".");
  const code = sandboxDocumentRejections[sandboxSuffix(dot > 0 ? fileName.slice(0, dot) : fileName)];
  if (code) {
    throw new ApiError(code, {
      reason: `The document provider rejected ${fileName} (${code}); upload another file.`,
    });
  }
}

/** Reads a document of the caller's platform; malformed, foreign or unknown ids are `404 NOT_FOUND`. */
async function findDocumentOrThrow(deps: Deps, caller: Caller, rawId: string): Promise<store.DocumentRow> {
  const id = parseId("Document", rawId);
  const row = id ? await store.findDocument(deps.db, caller.platformId, id) : undefined;
  if (!row) throw new ApiError("NOT_FOUND", { reason: `No document ${rawId}.` });
  return row;
}

/** `POST /documents`: one document per customer and type; a second one is `409 DOCUMENT_ALREADY_EXISTS`. */
export async function createDocument(
  deps: Deps,
  caller: Caller,
  input: CreateDocumentBody,
): Promise<Document> {
  const file = fileFacts(input);
  const now = nowFor(deps, caller);
  try {
    return await deps.db.transaction(async (tx) => {
      const customer = await findActiveCustomerOrThrow(tx, caller, input.customerId);
      const accepted = acceptedDocumentTypes[customer.customer_type];
      if (!accepted.includes(input.documentType)) {
        throw new ApiError("UNSUITABLE_DOCUMENT", {
          reason: `A ${customer.customer_type} customer cannot submit a ${input.documentType} document.`,
          details: { field: "documentType", acceptedDocumentTypes: accepted },
        });
      }
      rejectBySandboxRule(caller, input.fileName);
      const row: store.DocumentRow = {
        id: newId("Document"),
        platform_id: caller.platformId,
        customer_id: customer.id,
        document_type: input.documentType,
        ...file,
        created_at: now,
        updated_at: now,
      };
      await store.insertDocument(tx, row);
      return toDocument(row);
    });
  } catch (error) {
    if (isUniqueViolation(error, store.documentConstraints.customerType)) {
      throw new ApiError("DOCUMENT_ALREADY_EXISTS", {
        reason: `Customer ${input.customerId} already has a ${input.documentType} document; replace it with PUT /documents/{documentId}.`,
        cause: error,
      });
    }
    throw error;
  }
}

/** `PUT /documents/{id}`: replaces the file of an existing document, keeping its id, customer and type. */
export async function replaceDocument(
  deps: Deps,
  caller: Caller,
  rawId: string,
  input: ReplaceDocumentBody,
): Promise<Document> {
  const file = fileFacts(input);
  const id = parseId("Document", rawId);
  const row = id
    ? await deps.db.transaction(async (tx) => {
        // 404 before the provider's verdict; a rejected replacement leaves the stored file as it was.
        if (!(await store.findDocument(tx, caller.platformId, id))) return undefined;
        rejectBySandboxRule(caller, input.fileName);
        return store.replaceDocument(tx, caller.platformId, id, {
          ...file,
          updated_at: nowFor(deps, caller),
        });
      })
    : undefined;
  if (!row) throw new ApiError("NOT_FOUND", { reason: `No document ${rawId}.` });
  return toDocument(row);
}

/**
 * `DELETE /documents/{documentId}` (the hosted API's deleteDocument) → 204, while its customer's kycStatus is
 * UNVERIFIED. Once a packet is under review or decided (PENDING, HOLD, APPROVED, REJECTED) its documents are
 * the record of it: `409 CONFLICT`.
 */
export async function deleteDocument(deps: Deps, caller: Caller, rawId: string): Promise<void> {
  const id = parseId("Document", rawId);
  const deleted = id
    ? await deps.db.transaction(async (tx) => {
        const row = await store.lockDocumentWithKycStatus(tx, caller.platformId, id);
        if (!row) return false;
        if (row.kyc_status !== "UNVERIFIED") {
          throw new ApiError("CONFLICT", {
            reason: `Document ${id} is part of customer ${row.customer_id}'s verification (kycStatus ${row.kyc_status}) and cannot be deleted.`,
          });
        }
        await store.deleteDocument(tx, id);
        return true;
      })
    : false;
  if (!deleted) throw new ApiError("NOT_FOUND", { reason: `No document ${rawId}.` });
}

export async function getDocument(deps: Deps, caller: Caller, rawId: string): Promise<Document> {
  return toDocument(await findDocumentOrThrow(deps, caller, rawId));
}

export async function listDocuments(
  deps: Deps,
  caller: Caller,
  filters: { customerId?: string | undefined },
  page: store.PageInput,
): Promise<PageResult<Document>> {
  const result = await store.listDocuments(deps.db, caller.platformId, filters, page);
  return { ...result, data: result.data.map(toDocument) };
}
