import type { TableChange } from "./db-snapshot.js";

/**
 * The rejections a rule commits a write for on purpose (issue 9 part 6). Each one is matched narrowly:
 * the operation and status (and code) that rule answers, and exactly the tables, row counts included,
 * that rule writes. Any other write by a 4xx is a violation of "nothing is written for a rejected request".
 */
interface Rejected {
  method: string;
  operation: string;
  headers: Record<string, string>;
}
interface Answer {
  status: number;
  code: string | null;
}
// (`operation` is the OpenAPI operation, e.g. "POST /quotes/{quoteId}/execute".)

interface Exception {
  name: string;
  applies(request: Rejected, answer: Answer): boolean;
  /**
   * Table -> the row-count change it must show: a number (exact), null (rows changed in place, same
   * count) or "+" (rows added, any number: an event's deliveries and jobs, one per endpoint).
   */
  writes: Record<string, number | null | "+">;
}

const hasHeader = (request: Rejected, name: string) =>
  Object.keys(request.headers).some((k) => k.toLowerCase() === name);

export const rejectionWrites: Exception[] = [
  {
    // Conventions §1.8: the first answer to a POST with an Idempotency-Key is stored and replayed, except
    // 400, 401, 403 and 429; so a 404, 409, 423 or 424 commits the key's row.
    name: "idempotency key stores the 4xx answer (conventions §1.8)",
    applies: (request, answer) =>
      request.method === "POST" &&
      hasHeader(request, "idempotency-key") &&
      ![400, 401, 403, 429].includes(answer.status),
    writes: { idempotency_keys: 1 },
  },
  {
    // Conventions §4.3: a failed wallet-signature verify uses the challenge up and makes the account
    // UNVERIFIED (EXTERNAL_ACCOUNT.STATUS_UPDATED), committed before the 400 answers.
    name: "failed ownership verify makes the account UNVERIFIED (conventions §4.3)",
    applies: (request, answer) =>
      /^POST \/(customers|platform)\/external-accounts\/\{[^}]+\}\/verify$/.test(request.operation) &&
      answer.status === 400,
    writes: {
      ownership_challenges: null,
      external_accounts: null,
      webhook_events: 1,
      webhook_deliveries: "+",
      jobs: "+",
    },
  },
  {
    // Interface "Execute a quote": an expired quote is marked EXPIRED, committed before 400 QUOTE_EXPIRED.
    name: "an expired quote is marked EXPIRED on execute",
    applies: (request, answer) =>
      request.operation === "POST /quotes/{quoteId}/execute" && answer.code === "QUOTE_EXPIRED",
    writes: { quotes: null },
  },
  {
    // Conventions §5.8: failed proofs are counted (the 429 and 423 limits read them), so a failed verify
    // commits its attempt; the OTP challenge it used may be spent.
    name: "a failed credential verify is counted (conventions §5.8)",
    applies: (request, answer) =>
      request.operation === "POST /auth/credentials/{id}/verify" && [400, 401].includes(answer.status),
    writes: { auth_attempts: 1, otp_challenges: null },
  },
];

/** The name of the rule that allows exactly these writes for this rejection, or null. */
export function committedOnRejection(
  request: Rejected,
  answer: Answer,
  changes: TableChange[],
): string | null {
  for (const exception of rejectionWrites) {
    if (!exception.applies(request, answer)) continue;
    const exact = changes.every((change) => {
      if (!(change.table in exception.writes)) return false;
      const expected = exception.writes[change.table];
      if (expected === "+") return change.rowDelta >= 0;
      return expected === null ? change.rowDelta === 0 : change.rowDelta === expected;
    });
    if (exact) return exception.name;
  }
  return null;
}
