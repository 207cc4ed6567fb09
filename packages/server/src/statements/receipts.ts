import {
  chicagoMonthOf,
  chicagoOffsetMinutes,
  formatChicago,
  formatOffset,
  type StatementPeriod,
  writtenOffsetMinutes,
} from "../core/chicago.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { decodeCursor, encodeCursor, type PageRequest, type PageResult } from "../core/http/pagination.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import { assertWindowClosed } from "./availability.js";
import type { ConfirmedDeliveryRecord, DeliveryRecord } from "./schemas.js";
import * as store from "./store.js";

/**
 * Statement accounts (interface "Periodic statement rules" 2–3, conventions §3.1): customer-owned USD
 * INTERNAL_FIAT accounts that are neither rule-based nor bulk-settlement. Status does not matter: a
 * closed account still gets the statements of the months it was open.
 */
export function isStatementAccount(account: InternalAccountRow): boolean {
  return (
    account.customer_id !== null &&
    account.currency === "USD" &&
    account.type === "INTERNAL_FIAT" &&
    account.role === "STANDARD"
  );
}

export function toDeliveryRecord(row: store.DeliveryRow): DeliveryRecord {
  const { end } = chicagoMonthOf(row.period_start);
  const record: DeliveryRecord = {
    accountId: row.account_id,
    periodStart: formatChicago(row.period_start),
    periodEnd: formatChicago(end),
  };
  if (row.fetched_at) record.fetchedAt = row.fetched_at.toISOString();
  if (row.confirmed_at) record.confirmedAt = row.confirmed_at.toISOString();
  return record;
}

/** Records `fetchedAt` the first time a statement account's exact month window is answered (rule 7). */
export async function recordStatementFetch(
  deps: Deps,
  account: InternalAccountRow,
  period: StatementPeriod,
  now: Date,
): Promise<void> {
  if (!isStatementAccount(account)) return;
  const key = { platformId: account.platform_id, accountId: account.id, periodStart: period.start };
  await deps.db.transaction((tx) => store.recordFetched(tx, key, now));
}

/**
 * `periodStart` must be the first instant of a Chicago month written with Chicago's offset at that
 * instant (conventions §3.2); the same instant under another offset is refused rather than guessed.
 */
export function parsePeriodStart(raw: string): StatementPeriod {
  const instant = new Date(raw);
  const period = chicagoMonthOf(instant);
  if (period.start.getTime() !== instant.getTime()) {
    throw invalidField(
      "periodStart",
      `is not the first instant of an America/Chicago month; that month starts at ${formatChicago(period.start)}`,
    );
  }
  const expected = chicagoOffsetMinutes(instant);
  if (writtenOffsetMinutes(raw) !== expected) {
    throw invalidField(
      "periodStart",
      `must be written with the America/Chicago offset ${formatOffset(expected)} of that instant: ${formatChicago(instant)}`,
    );
  }
  return period;
}

/**
 * `POST /internal-accounts/{id}/statement-confirmations`: stores the receipt as the period's delivery
 * record. The first receipt sets confirmedAt (`created`); a repeat returns the record unchanged.
 */
export async function confirmStatement(
  deps: Deps,
  caller: Caller,
  rawAccountId: string,
  rawPeriodStart: string,
): Promise<{ created: boolean; record: ConfirmedDeliveryRecord }> {
  const period = parsePeriodStart(rawPeriodStart);
  const account = await findAccountOrThrow(deps.db, caller, rawAccountId);
  if (!isStatementAccount(account)) {
    throw new ApiError("CONFLICT", {
      reason: `Account ${account.id} has no statements: only customer-owned USD INTERNAL_FIAT accounts that are neither rule-based nor bulk-settlement do.`,
    });
  }
  const now = nowFor(deps, caller);
  assertWindowClosed(period.end, now, deps.settlementLagMs, "period end");
  const key = { platformId: caller.platformId, accountId: account.id, periodStart: period.start };
  return deps.db.transaction(async (tx) => {
    const confirmed = await store.confirmOnce(tx, key, now);
    const row = confirmed ?? (await store.findDelivery(tx, account.id, period.start));
    if (!row?.confirmed_at) throw new Error("statement delivery vanished after its receipt");
    return {
      created: confirmed !== undefined,
      record: { ...toDeliveryRecord(row), confirmedAt: row.confirmed_at.toISOString() },
    };
  });
}

/** `GET /internal-accounts/{id}/statement-deliveries`: keyset pages by periodStart, newest first by default. */
export async function listStatementDeliveries(
  deps: Deps,
  caller: Caller,
  rawAccountId: string,
  page: PageRequest,
): Promise<PageResult<DeliveryRecord>> {
  const account = await findAccountOrThrow(deps.db, caller, rawAccountId);
  // The cursor reuses the shared format: position (periodStart, accountId) under a per-account scope.
  const scope = `statement-deliveries|${caller.platformId}|${account.id}|${page.sortOrder}`;
  const after = page.cursor === undefined ? null : new Date(decodeCursor(scope, page.cursor).createdAt);
  const { rows, total } = await store.listDeliveries(deps.db, account.id, {
    limit: page.limit + 1,
    after,
    order: page.sortOrder,
  });
  const hasMore = rows.length > page.limit;
  const data = hasMore ? rows.slice(0, page.limit) : rows;
  const result: PageResult<DeliveryRecord> = { data: data.map(toDeliveryRecord), hasMore, totalCount: total };
  const last = data[data.length - 1];
  if (hasMore && last) {
    result.nextCursor = encodeCursor(scope, { createdAt: last.period_start.toISOString(), id: account.id });
  }
  return result;
}
