/**
 * The checks a statement must pass before it may be sent (interface "Periodic statement rules" 4–5 and
 * "Balance change window" rule 3), over all pages of the window together.
 */
import { type StatementCheck, StatementIntegrityError } from "../core/errors.js";
import type { ApiResult } from "../core/request.js";
import type { BalanceChange, BalanceChangeWindow, Currency } from "../types/index.js";
import { exactSum } from "./money.js";
import type { StatementPeriod } from "./period.js";

/** The window once every page is in and checked. */
export interface CheckedWindow {
  openingBalance: number;
  closingBalance: number;
  currency: Currency;
  changes: BalanceChange[];
  requestIds: string[];
}

export type WindowPage = ApiResult<BalanceChangeWindow>;

/** Raises the typed error with the context support needs. */
export function fail(
  check: StatementCheck,
  reason: string,
  context: { accountId: string; period: StatementPeriod; requestIds: string[] },
  extra: Record<string, unknown> = {},
): never {
  throw new StatementIntegrityError({
    check,
    reason,
    details: {
      accountId: context.accountId,
      periodStart: context.period.start,
      periodEnd: context.period.end,
      requestIds: context.requestIds,
      ...extra,
    },
    requestId: context.requestIds.at(-1),
  });
}

const sameInstant = (a: string, b: string) => Date.parse(a) === Date.parse(b) && !Number.isNaN(Date.parse(a));

/** The fields that describe the whole window and so must be identical on every page. */
function windowKey(page: BalanceChangeWindow): string {
  return JSON.stringify([
    page.openingBalance?.amount,
    page.openingBalance?.currency?.code,
    page.closingBalance?.amount,
    page.closingBalance?.currency?.code,
    page.windowStart,
    page.windowEnd,
    page.totalCount,
    page.totalCountIsExact,
  ]);
}

/**
 * Checks the pages of one window and returns its changes: same balances and bounds on every page, the
 * requested bounds, one currency, no change twice, the exact count, and
 * `openingBalance + Σ amount == closingBalance` over every page.
 */
export function checkWindow(
  pages: WindowPage[],
  context: { accountId: string; period: StatementPeriod; currencyCode: string },
): CheckedWindow {
  const requestIds = pages.map((p) => p.lastResponse?.requestId ?? "unknown");
  const ctx = { ...context, requestIds };
  const first = pages[0];
  if (!first) return fail("INVALID_PAGE", "No page of balance changes was read.", ctx);
  const key = windowKey(first);
  pages.forEach((page, index) => {
    if (windowKey(page) !== key) {
      fail("PAGE_MISMATCH", `Page ${index + 1} describes the window differently from page 1.`, ctx, {
        page: index + 1,
      });
    }
  });
  if (
    !sameInstant(first.windowStart, context.period.start) ||
    !sameInstant(first.windowEnd, context.period.end)
  ) {
    fail("WINDOW_MISMATCH", "The window returned is not the month requested.", ctx, {
      windowStart: first.windowStart,
      windowEnd: first.windowEnd,
    });
  }
  const currency = first.openingBalance?.currency;
  const codes = [currency?.code, first.closingBalance?.currency?.code];
  const changes = pages.flatMap((p) => p.data ?? []);
  for (const change of changes) codes.push(change.amount?.currency?.code, change.fee?.currency?.code);
  if (!currency || codes.some((code) => code !== context.currencyCode)) {
    fail("CURRENCY_MISMATCH", `An amount is not in the account's currency ${context.currencyCode}.`, ctx);
  }
  const ids = new Set(changes.map((c) => c.id));
  if (ids.size !== changes.length) fail("DUPLICATE_CHANGE", "A balance change appears twice.", ctx);
  if (first.totalCountIsExact && first.totalCount !== changes.length) {
    fail("COUNT_MISMATCH", `totalCount is ${first.totalCount} but ${changes.length} changes were read.`, ctx);
  }
  let sum: number;
  let opening: number;
  let closing: number;
  try {
    opening = exactSum([first.openingBalance.amount]);
    closing = exactSum([first.closingBalance.amount]);
    exactSum(changes.map((c) => c.fee.amount));
    sum = exactSum(changes.map((c) => c.amount.amount));
  } catch (error) {
    return fail("INVALID_PAGE", "An amount is not an integer number of minor units.", ctx, {
      error: String(error),
    });
  }
  if (exactSum([opening, sum]) !== closing) {
    fail("BALANCE_IDENTITY", "openingBalance + sum(amount) != closingBalance over all pages.", ctx, {
      openingBalance: opening,
      sumOfAmounts: sum,
      closingBalance: closing,
    });
  }
  return { openingBalance: opening, closingBalance: closing, currency, changes, requestIds };
}
