import { type Static, Type } from "typebox";
import { DateTime, StringEnum } from "../core/http/schemas.js";

const object = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

export const documentTypes = [
  "PASSPORT",
  "DRIVERS_LICENSE",
  "NATIONAL_ID",
  "PROOF_OF_ADDRESS",
  "CERTIFICATE_OF_INCORPORATION",
  "PROOF_OF_OWNERSHIP",
] as const;
export type DocumentType = (typeof documentTypes)[number];

/** Uploads are at most 1 MiB once decoded (decisions-kyc.md). */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

// Standard base64 (RFC 4648 §4) with padding and no whitespace; the decoded size is checked in documents.ts,
// since this length bound admits up to two bytes more than MAX_DOCUMENT_BYTES.
const Base64Content = Type.String({
  minLength: 1,
  maxLength: 4 * Math.ceil(MAX_DOCUMENT_BYTES / 3),
  pattern: "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
  description:
    "The file, standard base64 with padding; at most 1 MiB decoded. Only its hash and size are kept.",
});

const FileName = Type.String({ minLength: 1, maxLength: 255 });

export const CreateDocumentBody = object({
  // Any string: a malformed or foreign id is 404 CUSTOMER_NOT_FOUND, not 400 (conventions §1.3).
  customerId: Type.String(),
  documentType: StringEnum(documentTypes),
  fileName: FileName,
  content: Base64Content,
});
export type CreateDocumentBody = Static<typeof CreateDocumentBody>;

export const ReplaceDocumentBody = object({ fileName: FileName, content: Base64Content });
export type ReplaceDocumentBody = Static<typeof ReplaceDocumentBody>;

export const Document = Type.Object({
  id: Type.String(),
  customerId: Type.String(),
  documentType: StringEnum(documentTypes),
  fileName: Type.String(),
  sizeBytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ description: "Lowercase hex SHA-256 of the decoded content." }),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type Document = Static<typeof Document>;

export const DocumentParams = Type.Object({ documentId: Type.String() });

/** The hosted API's VerificationStatus; this service produces RESOLVE_ERRORS, PENDING_MANUAL_REVIEW, APPROVED, REJECTED. */
export const verificationStatuses = [
  "RESOLVE_ERRORS",
  "PENDING_MANUAL_REVIEW",
  "IN_PROGRESS",
  "APPROVED",
  "REJECTED",
  "READY_FOR_VERIFICATION",
] as const;
export type VerificationStatus = (typeof verificationStatuses)[number];

/** The VerificationErrorType values the packet check produces (the hosted enum has more, from a provider). */
export const verificationErrorTypes = [
  "MISSING_FIELD",
  "MISSING_IDENTITY_DOCUMENT",
  "MISSING_LEGAL_PRESENCE_DOCUMENT",
  "MISSING_BENEFICIAL_OWNER",
] as const;

/** The hosted API's VerificationError: one missing field, document or owner of the packet. */
export const VerificationError = Type.Object({
  resourceId: Type.String({ description: "The resource the entry is about: here always the customer." }),
  type: StringEnum(verificationErrorTypes),
  field: Type.Optional(
    Type.String({ description: "Path of the missing customer field, e.g. businessInfo.legalName." }),
  ),
  acceptedDocumentTypes: Type.Optional(Type.Array(StringEnum(documentTypes))),
  reason: Type.String(),
});
export type VerificationError = Static<typeof VerificationError>;

export const Verification = Type.Object({
  id: Type.String(),
  customerId: Type.String(),
  verificationStatus: StringEnum(verificationStatuses),
  errors: Type.Array(VerificationError, {
    description: "One entry per missing field, document or owner; empty unless RESOLVE_ERRORS.",
  }),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type Verification = Static<typeof Verification>;

export const CreateVerificationBody = object({ customerId: Type.String() });
export type CreateVerificationBody = Static<typeof CreateVerificationBody>;

export const VerificationParams = Type.Object({ verificationId: Type.String() });
