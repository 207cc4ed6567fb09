import { type Static, Type } from "typebox";
import { DateTime, StringEnum } from "../../core/http/schemas.js";

export const bulkJobStatuses = ["PENDING", "PROCESSING", "COMPLETED", "FAILED"] as const;

/**
 * One failed row (the hosted BulkCustomerImportErrorEntry, with our error body's `reason` for `message`):
 * `correlationId` is the row's `platformCustomerId`, or `row-<n>` when it has none; `details.row` is the
 * row's number (1 = the first row after the header) and `details.errors` its FieldErrors, if any.
 */
export const BulkCustomerImportErrorEntry = Type.Object({
  correlationId: Type.String(),
  code: Type.String(),
  reason: Type.String(),
  details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type BulkCustomerImportErrorEntry = Static<typeof BulkCustomerImportErrorEntry>;

export const BulkCustomerImportJob = Type.Object({
  id: Type.String(),
  status: StringEnum(bulkJobStatuses),
  progress: Type.Object({
    total: Type.Integer({ minimum: 0 }),
    processed: Type.Integer({ minimum: 0 }),
    successful: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
  }),
  errors: Type.Array(BulkCustomerImportErrorEntry),
  completedAt: Type.Optional(DateTime()),
});
export type BulkCustomerImportJob = Static<typeof BulkCustomerImportJob>;

export const BulkCustomerImportJobAccepted = Type.Object({
  jobId: Type.String(),
  status: StringEnum(["PENDING", "PROCESSING"]),
});

export const BulkJobParams = Type.Object({ jobId: Type.String() });
