import type { ErrorBody, FieldError } from "../types/common.js";

/** What an error knows about the failed call. */
export interface PaysvcErrorInit {
  code: string;
  reason: string;
  details?: Record<string, unknown> | undefined;
  /** HTTP status; absent when no response arrived. */
  status?: number | undefined;
  /** The response's `X-Request-Id`: quote it when reporting a problem. */
  requestId?: string | undefined;
  /** The response's `Retry-After` in seconds (sent on every 429 and on `409 NOT_YET_AVAILABLE`). */
  retryAfterSeconds?: number | undefined;
  cause?: unknown;
}

/**
 * Every failed call rejects with a PaysvcError: the body's `code`, `reason` and `details`, plus the HTTP
 * status and the request id. Catch a subclass (picked by status) or compare `code`.
 */
export class PaysvcError extends Error {
  readonly code: string;
  readonly reason: string;
  readonly details: Record<string, unknown> | undefined;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(init: PaysvcErrorInit) {
    super(`${init.code}: ${init.reason}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.reason = init.reason;
    this.details = init.details;
    this.status = init.status;
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  /** `details.errors` of a `400 INVALID_INPUT`: one entry per invalid field; empty otherwise. */
  get fieldErrors(): FieldError[] {
    const errors = this.details?.errors;
    return Array.isArray(errors) ? errors.filter(isFieldError) : [];
  }
}

function isFieldError(value: unknown): value is FieldError {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { field?: unknown }).field === "string" &&
    typeof (value as { message?: unknown }).message === "string"
  );
}

/** 400: the request was refused as invalid (`INVALID_INPUT`, `INVALID_REQUEST_FORMAT`, …). */
export class BadRequestError extends PaysvcError {}
/** 401: credentials missing or wrong (`UNAUTHORIZED`), or a wallet signature problem. */
export class AuthenticationError extends PaysvcError {}
/** 403: the token lacks the permission (`FORBIDDEN`) or the operation is not allowed. */
export class PermissionError extends PaysvcError {}
/** 404: the resource does not exist for this platform (`CUSTOMER_NOT_FOUND`, …). */
export class NotFoundError extends PaysvcError {}
/** 409: the request conflicts with the current state (`CONFLICT`, `NOT_YET_AVAILABLE`, …). */
export class ConflictError extends PaysvcError {}
/** 429: slow down; `retryAfterSeconds` says for how long. */
export class RateLimitError extends PaysvcError {}
/** 5xx: the server failed or does not implement the operation. */
export class ApiServerError extends PaysvcError {}
/** No response arrived: connection refused or reset, DNS failure, or the per-request timeout. */
export class ConnectionError extends PaysvcError {}

const byStatus: Record<number, typeof PaysvcError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
};

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { code?: unknown }).code === "string" &&
    typeof (value as { reason?: unknown }).reason === "string"
  );
}

/** The typed error for an HTTP error response; a body that is not `{code, reason}` keeps the status. */
export function errorFromResponse(
  status: number,
  body: unknown,
  meta: { requestId: string | undefined; retryAfterSeconds: number | undefined; statusText?: string },
): PaysvcError {
  const parsed = isErrorBody(body)
    ? body
    : { code: `HTTP_${status}`, reason: `HTTP ${status}${meta.statusText ? ` ${meta.statusText}` : ""}.` };
  const ErrorClass = status >= 500 ? ApiServerError : (byStatus[status] ?? PaysvcError);
  const details = parsed.details !== null && typeof parsed.details === "object" ? parsed.details : undefined;
  return new ErrorClass({
    code: parsed.code,
    reason: parsed.reason,
    details,
    status,
    requestId: meta.requestId,
    retryAfterSeconds: meta.retryAfterSeconds,
  });
}

/** Which statement check failed (see `StatementIntegrityError`). */
export type StatementCheck =
  | "BALANCE_IDENTITY"
  | "PAGE_MISMATCH"
  | "WINDOW_MISMATCH"
  | "CURRENCY_MISMATCH"
  | "DUPLICATE_CHANGE"
  | "COUNT_MISMATCH"
  | "INVALID_PAGE"
  | "DECLINED_ROW_MOVED_MONEY"
  | "LINES_SUM";

/**
 * The balance changes of a statement period do not add up (interface "Periodic statement rules" 4–5):
 * `openingBalance + Σ amount ≠ closingBalance`, or the pages disagree. The statement must NOT be sent;
 * contact paysvc support with `details` (account, period, the failed check and every page's request id).
 * Raised by the SDK, not by a response, so `status` is undefined; `code` is `STATEMENT_INTEGRITY_FAILED`.
 */
export class StatementIntegrityError extends PaysvcError {
  readonly check: StatementCheck;

  constructor(init: {
    check: StatementCheck;
    reason: string;
    details: Record<string, unknown>;
    requestId?: string | undefined;
  }) {
    super({
      code: "STATEMENT_INTEGRITY_FAILED",
      reason: `${init.reason} Do not send this statement; contact paysvc support with the account, the period and these request ids.`,
      details: { check: init.check, ...init.details },
      requestId: init.requestId,
    });
    this.check = init.check;
  }
}
