/** SQLSTATE codes the service reacts to (PostgreSQL appendix A). */
export const sqlstate = {
  uniqueViolation: "23505",
  foreignKeyViolation: "23503",
  checkViolation: "23514",
  serializationFailure: "40001",
  deadlockDetected: "40P01",
  lockNotAvailable: "55P03",
} as const;

/** The SQLSTATE of a driver error, or undefined for anything else. */
export function sqlstateOf(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** The constraint named by a driver error (both pg and PGlite report it), for mapping 23505 to a code. */
export function constraintOf(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "constraint" in error) {
    const name = (error as { constraint: unknown }).constraint;
    return typeof name === "string" ? name : undefined;
  }
  return undefined;
}

export function isRetryable(error: unknown): boolean {
  const code = sqlstateOf(error);
  return code === sqlstate.serializationFailure || code === sqlstate.deadlockDetected;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return (
    sqlstateOf(error) === sqlstate.uniqueViolation &&
    (constraint === undefined || constraintOf(error) === constraint)
  );
}
