import { exactChicagoMonth, formatChicago } from "../core/chicago.js";
import { type Deps, nowFor } from "../core/deps.js";
import { invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { currency, money } from "../core/money.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import { assertWindowClosed } from "./availability.js";
import { recordStatementFetch } from "./receipts.js";
import {
  BALANCE_CHANGES_DEFAULT_LIMIT,
  type BalanceChangesQuery,
  type BalanceChangeWindow,
  TOTAL_COUNT_CAP,
} from "./schemas.js";
import * as store from "./store.js";

/** Checks `[from, to)` against the platform clock (conventions §3.1: both failures are 400 on `to`). */
function parseWindow(query: BalanceChangesQuery, now: Date): { from: Date; to: Date } {
  const from = new Date(query.from);
  const to = new Date(query.to);
  if (from.getTime() >= to.getTime()) throw invalidField("to", "must be later than from");
  if (to.getTime() > now.getTime()) {
    throw invalidField("to", `must not be in the future; the platform's time is ${now.toISOString()}`);
  }
  return { from, to };
}

/**
 * The cursor is the previous page's last BalanceChange id. It must be a change of this account inside
 * `[from, to)`; anything else is refused, never read as "start over" (conventions §3.1).
 */
async function cursorPosition(
  deps: Deps,
  window: store.Window,
  cursor: string | undefined,
): Promise<{ effectiveAt: Date; id: string } | null> {
  if (cursor === undefined) return null;
  const id = parseId("BalanceChange", cursor);
  const row = id ? await store.findChangePosition(deps.db, window.accountId, id) : undefined;
  if (!id || !row) {
    throw invalidField("cursor", "is not a balance change of this account returned by this feed");
  }
  if (row.effective_at < window.from || row.effective_at >= window.to) {
    throw invalidField("cursor", "names a balance change outside the window [from, to)");
  }
  return { effectiveAt: row.effective_at, id };
}

/**
 * `GET /internal-accounts/{id}/balance-changes`: one keyset page of the half-open window `[from, to)`.
 * Opening and closing balances are two index lookups of the running balance (never a sum over
 * history), and totalCount is the difference of two running counts, so a page costs the same on a
 * 10-change and a 10-million-change account. The window is closed (availability.ts), so the separate
 * reads agree without a snapshot: nothing can be posted inside it any more.
 */
export async function listBalanceChanges(
  deps: Deps,
  caller: Caller,
  rawAccountId: string,
  query: BalanceChangesQuery,
): Promise<string> {
  const now = nowFor(deps, caller);
  const { from, to } = parseWindow(query, now);
  const account = await findAccountOrThrow(deps.db, caller, rawAccountId);
  const window: store.Window = { accountId: account.id, from, to };
  const after = await cursorPosition(deps, window, query.cursor);
  assertWindowClosed(to, now, deps.settlementLagMs, "window end");
  const limit = query.limit ?? BALANCE_CHANGES_DEFAULT_LIMIT;
  // Balances and change counts at both ends are running values on the ledger rows: two index lookups in
  // the page's statement, so neither the balances nor totalCount cost more on a long history.
  const page = await store.pageOfChangesAsJson(
    deps.db,
    window,
    after,
    limit,
    JSON.stringify(currency(account.currency)),
  );
  const start = { balance: page.start_balance ?? 0, count: page.start_count ?? 0 };
  const end = { balance: page.end_balance ?? 0, count: page.end_count ?? 0 };
  const period = exactChicagoMonth(from, to);
  if (period) await recordStatementFetch(deps, account, period, now);
  return windowJson(account, { from, to, page, limit, counted: end.count - start.count, start, end });
}

/**
 * The window as the JSON text of BalanceChangeWindow (statements/schemas.ts), `data` first, as the
 * database wrote it.
 */
function windowJson(
  account: InternalAccountRow,
  window: {
    from: Date;
    to: Date;
    page: store.JsonPage;
    limit: number;
    counted: number;
    start: { balance: number };
    end: { balance: number };
  },
): string {
  const hasMore = window.page.fetched > window.limit;
  const rest: Omit<BalanceChangeWindow, "data"> = {
    openingBalance: money(window.start.balance, account.currency),
    closingBalance: money(window.end.balance, account.currency),
    windowStart: formatChicago(window.from),
    windowEnd: formatChicago(window.to),
    hasMore,
    ...(hasMore && window.page.last_id ? { nextCursor: window.page.last_id } : {}),
    totalCount: Math.min(window.counted, TOTAL_COUNT_CAP),
    totalCountIsExact: window.counted <= TOTAL_COUNT_CAP,
  };
  return `{"data":[${window.page.data}],${JSON.stringify(rest).slice(1)}`;
}
