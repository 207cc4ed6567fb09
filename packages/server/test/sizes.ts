/**
 * How much the property, volume and fuzz tests do, in one place. Small by default, so `npm test` stays
 * quick; `PAYSVC_TEST_SIZE=long` runs the long counts (docs/reliability.md "Test sizes"). Each test's
 * timeout is set from the same table.
 */
const long = process.env.PAYSVC_TEST_SIZE === "long";

export const sizes = {
  /** test/reliability/fuzz.test.ts: generated requests over every OpenAPI operation. */
  fuzzRequests: long ? 2_000 : 400,
  /** test/reliability/concurrency-money.test.ts: card authorizations racing for one account's funds. */
  racingAuthorizations: long ? 1_000 : 300,
  /** test/cards/card-model.test.ts: command sequences of the card transactions model. */
  cardModelRuns: long ? 25 : 8,
  /** test/statements/statement-properties.test.ts: random histories, windows and page splits. */
  statementWindowRuns: long ? 25 : 8,
  /** test/exchange-rates/fx-properties.test.ts: random conversions, locked on either side. */
  fxRuns: long ? 10_000 : 500,
  /** test/statements/statement-properties.test.ts: closed windows re-read after more postings. */
  closedWindowRuns: long ? 20 : 6,
} as const;

/** A timeout for a test doing `count` units of work at about `msEach` each on a loaded 2-core machine. */
export function timeoutFor(count: number, msEach: number): number {
  return Math.max(30_000, count * msEach * 3);
}
