import type { ValidateFunction } from "ajv";
import type { Tx } from "../../core/db/db.js";
import { savepointDb } from "../../core/db/savepoint.js";
import { type Deps, nowFor } from "../../core/deps.js";
import { ApiError } from "../../core/errors/api-error.js";
import type { Caller } from "../../core/http/context.js";
import { fieldErrors, validatorCompiler } from "../../core/http/validation.js";
import { newId, parseId } from "../../core/ids.js";
import { type JobContext, type JobHandler, scheduleJob } from "../../core/jobs/jobs.js";
import { findPlatform } from "../../platform/store.js";
import { enqueueEvent } from "../../webhooks/outbox.js";
import { createCustomer } from "../customers.js";
import { CreateCustomerBody } from "../schemas.js";
import { type Column, parseCustomerCsv, resolveColumn, rowBody } from "./csv.js";
import type { BulkCustomerImportErrorEntry, BulkCustomerImportJob } from "./schemas.js";
import * as store from "./store.js";

/** The job kind that imports an upload's rows, registered in src/jobs.ts. */
export const BULK_IMPORT_JOB = "customers.bulk-import";
/** Rows per run of the job: each row commits with its progress, and the job comes back for the next rows. */
export const ROWS_PER_RUN = 50;
/** Runs that end in an unexpected error before the import is given up as FAILED. */
export const MAX_FAILED_RUNS = 5;

// The very validator of `POST /customers` bodies (core/http/validation.ts), so every row gets the same
// FieldErrors a create would.
let bodyValidator: ValidateFunction | undefined;
function validateBody(body: Record<string, unknown>) {
  bodyValidator ??= validatorCompiler({
    schema: CreateCustomerBody,
    httpPart: "body",
    method: "POST",
    url: "/customers",
  }) as ValidateFunction;
  return bodyValidator(body) ? [] : fieldErrors(bodyValidator.errors ?? [], "body");
}

function toJob(row: store.BulkJobRow, errors: Record<string, unknown>[]): BulkCustomerImportJob {
  const job: BulkCustomerImportJob = {
    id: row.id,
    status: row.status,
    progress: { total: row.total, processed: row.processed, successful: row.successful, failed: row.failed },
    errors: errors as BulkCustomerImportErrorEntry[],
  };
  if (row.completed_at) job.completedAt = row.completed_at.toISOString();
  return job;
}

/**
 * `POST /customers/bulk/csv`: parses the file (whole-file problems are `400`), stores its rows and schedules
 * the import, all in one transaction. Rows are validated and created by the job, one by one.
 */
export async function startImport(deps: Deps, caller: Caller, content: Buffer) {
  const parsed = parseCustomerCsv(CreateCustomerBody, content);
  const now = nowFor(deps, caller);
  const id = newId("Job");
  await deps.db.transaction(async (tx) => {
    await store.insertJob(
      tx,
      {
        id,
        platform_id: caller.platformId,
        token_id: caller.tokenId,
        status: "PENDING",
        columns: parsed.columns,
        total: parsed.rows.length,
        processed: 0,
        successful: 0,
        failed: 0,
        created_at: now,
        updated_at: now,
        completed_at: null,
      },
      parsed.rows,
    );
    await scheduleJob(tx, {
      platformId: caller.platformId,
      kind: BULK_IMPORT_JOB,
      payload: { jobId: id },
      runAt: now,
      now,
    });
  });
  return { jobId: id, status: "PENDING" as const };
}

/** `GET /customers/bulk/jobs/{jobId}`; malformed, foreign or unknown ids are `404 BULK_UPLOAD_JOB_NOT_FOUND`. */
export async function getImport(deps: Deps, caller: Caller, rawId: string): Promise<BulkCustomerImportJob> {
  const id = parseId("Job", rawId);
  const row = id ? await store.findJob(deps.db, caller.platformId, id) : undefined;
  if (!row) throw new ApiError("BULK_UPLOAD_JOB_NOT_FOUND", { reason: `No bulk upload job ${rawId}.` });
  return toJob(row, await store.rowErrors(deps.db, row.id));
}

/** The error entry of a failed row, or null once its customer is created. */
async function importRow(
  deps: Deps,
  tx: Tx,
  caller: Caller,
  columns: Column[],
  row: store.BulkRow,
): Promise<Record<string, unknown> | null> {
  const cells = row.cells ?? [];
  const body = rowBody(columns, cells);
  const correlationId =
    typeof body.platformCustomerId === "string" ? body.platformCustomerId : `row-${row.row_number}`;
  const failure = (code: string, reason: string, details: Record<string, unknown> = {}) => ({
    correlationId,
    code,
    reason: `Row ${row.row_number}: ${reason}`,
    details: { row: row.row_number, ...details },
  });
  if (cells.length !== columns.length) {
    const message = `has ${cells.length} cells; the header has ${columns.length}`;
    return failure("INVALID_INPUT", `${message}.`, { errors: [{ field: "row", message }] });
  }
  const errors = validateBody(body);
  if (errors.length > 0) {
    const first = errors[0];
    const reason =
      errors.length === 1 && first
        ? `Invalid ${first.field}: ${first.message}`
        : `${errors.length} fields are invalid.`;
    return failure("INVALID_INPUT", reason, { errors });
  }
  try {
    // createCustomer's own transaction becomes a savepoint of this row's, so a refused row leaves nothing.
    await createCustomer(
      { ...deps, db: savepointDb(deps.db, tx, "bulk_row") },
      caller,
      body as CreateCustomerBody,
    );
    return null;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return failure(error.code, error.reason, error.details);
  }
}

/**
 * Imports one row exactly once: the job row is locked, the row is skipped if an earlier run recorded it, and
 * the customer, the row's outcome and the progress counters commit together.
 */
async function processRow(deps: Deps, caller: Caller, jobId: string, columns: Column[], row: store.BulkRow) {
  await deps.db.transaction(async (tx) => {
    const job = await store.findJob(tx, caller.platformId, jobId, true);
    if (!job || job.processed !== row.row_number - 1) return;
    const error = await importRow(deps, tx, caller, columns, row);
    await store.recordRow(tx, job, row.row_number, error, nowFor(deps, caller));
  });
}

/** Ends the import (COMPLETED, or FAILED when it was given up) and fires BULK_UPLOAD.* with the job as data. */
async function finishImport(
  tx: Tx,
  deps: Deps,
  caller: Caller,
  job: store.BulkJobRow,
  status: "COMPLETED" | "FAILED",
) {
  const now = nowFor(deps, caller);
  await store.finishJob(tx, job.id, status, now);
  const data = toJob(
    { ...job, status, completed_at: now, updated_at: now },
    await store.rowErrors(tx, job.id),
  );
  await enqueueEvent(tx, { platformId: caller.platformId, type: `BULK_UPLOAD.${status}`, data, now });
}

/**
 * The job: the next ROWS_PER_RUN rows, then a new job for the rest, due at once, until every row is
 * processed. A run that keeps failing unexpectedly is retried by the runner, and given up after
 * MAX_FAILED_RUNS attempts: the import is then FAILED with the rows done so far.
 */
const runImport = async (context: JobContext) => {
  const { deps, job } = context;
  const jobId = String(job.payload.jobId);
  const platform = await findPlatform(deps.db, job.platformId);
  const current = await store.findJob(deps.db, job.platformId, jobId);
  if (!platform || !current || current.status === "COMPLETED" || current.status === "FAILED") {
    await deps.db.transaction((tx) => context.finish(tx));
    return;
  }
  const caller: Caller = {
    platformId: platform.id,
    tokenId: current.token_id,
    permissions: ["MANAGE"],
    environment: platform.environment,
    clockOffsetMs: platform.clock_offset_ms,
  };
  try {
    const columns = current.columns.map((header) => resolveColumn(CreateCustomerBody, header) as Column);
    for (const row of await store.pendingRows(deps.db, jobId, current.processed, ROWS_PER_RUN)) {
      await processRow(deps, caller, jobId, columns, row);
    }
  } catch (error) {
    if (job.attempts < MAX_FAILED_RUNS) throw error;
    deps.logger.error({ err: error, jobId }, "bulk customer import given up");
    await deps.db.transaction(async (tx) => {
      const locked = await store.findJob(tx, caller.platformId, jobId, true);
      if (locked) await finishImport(tx, deps, caller, locked, "FAILED");
      await context.finish(tx);
    });
    return;
  }
  await deps.db.transaction(async (tx) => {
    const locked = await store.findJob(tx, caller.platformId, jobId, true);
    if (locked && locked.processed < locked.total) {
      // The next rows are a job of their own, so its attempts count only its own failures.
      const now = nowFor(deps, caller);
      await scheduleJob(tx, {
        platformId: platform.id,
        kind: BULK_IMPORT_JOB,
        payload: { jobId },
        runAt: now,
        now,
      });
    } else if (locked) {
      await finishImport(tx, deps, caller, locked, "COMPLETED");
    }
    await context.finish(tx);
  });
};

/** Job kinds of bulk customer import, registered in src/jobs.ts. */
export function bulkImportJobHandlers(): Record<string, JobHandler> {
  return { [BULK_IMPORT_JOB]: runImport };
}
