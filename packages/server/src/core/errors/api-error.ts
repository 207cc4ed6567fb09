import { catalogue, type ErrorCode } from "./catalogue.js";

/** One invalid field of a request, as the interface's FieldError. */
export interface FieldError {
  field: string;
  constraint?: {
    format?: string;
    pattern?: string;
    enum?: string[];
    minLength?: number;
    maxLength?: number;
  };
  message: string;
}

export interface ApiErrorOptions {
  reason?: string;
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
  cause?: unknown;
}

/** The only error type domain code throws; core/http renders it as `{code, reason, details?}`. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly reason: string;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    const entry = catalogue[code];
    const reason = options.reason ?? entry.reason;
    super(reason, { cause: options.cause });
    this.name = "ApiError";
    this.code = code;
    this.status = entry.status;
    this.reason = reason;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  toBody(): { code: ErrorCode; reason: string; details?: Record<string, unknown> } {
    return this.details === undefined
      ? { code: this.code, reason: this.reason }
      : { code: this.code, reason: this.reason, details: this.details };
  }
}

/** `400 INVALID_INPUT` listing every invalid field in `details.errors`. */
export function invalidInput(errors: FieldError[], reason?: string): ApiError {
  const first = errors[0];
  const summary =
    reason ??
    (errors.length === 1 && first
      ? `Invalid ${first.field}: ${first.message}`
      : `${errors.length} fields are invalid.`);
  return new ApiError("INVALID_INPUT", { reason: summary, details: { errors } });
}

/** Shorthand for a single invalid field. */
export function invalidField(
  field: string,
  message: string,
  constraint?: FieldError["constraint"],
): ApiError {
  return invalidInput([constraint ? { field, constraint, message } : { field, message }]);
}
