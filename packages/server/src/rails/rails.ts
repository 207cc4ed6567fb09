import { chicagoDay, chicagoOffsetMinutes, chicagoWallTime } from "../core/chicago.js";
import { ApiError } from "../core/errors/api-error.js";

/** The rails a USD payout to an external bank account may use (conventions §3.5). */
export const payoutRails = ["ACH", "ACH_SAME_DAY"] as const;
export type PayoutRail = (typeof payoutRails)[number];

/**
 * US Federal Reserve holidays 2026-2028 (docs/decisions.md "Payouts"). A holiday on a Sunday is
 * observed the Monday after; one on a Saturday is not moved (the Fed stays open the Friday before), so
 * 2026-07-04, 2027-06-19, 2027-12-25, 2028-01-01 and 2028-11-11 close nothing.
 */
const fedHolidays = new Set([
  "2026-01-01",
  "2026-01-19",
  "2026-02-16",
  "2026-05-25",
  "2026-06-19",
  "2026-09-07",
  "2026-10-12",
  "2026-11-11",
  "2026-11-26",
  "2026-12-25",
  "2027-01-01",
  "2027-01-18",
  "2027-02-15",
  "2027-05-31",
  "2027-07-05",
  "2027-09-06",
  "2027-10-11",
  "2027-11-11",
  "2027-11-25",
  "2028-01-17",
  "2028-02-21",
  "2028-05-29",
  "2028-06-19",
  "2028-07-04",
  "2028-09-04",
  "2028-10-09",
  "2028-11-23",
  "2028-12-25",
]);

/** Same-day ACH payouts after this Chicago wall time settle the next business day. */
export const SAME_DAY_CUTOFF = { hour: 14, minute: 45 };
/** Both ACH rails settle at this Chicago wall time on their settlement date. */
export const SETTLEMENT_HOUR = 17;

/** ACH_SAME_DAY per-entry cap in USD cents: 1,000,000.00, then 10,000,000.00 from 2027-09-17 (Chicago). */
export function sameDayCap(now: Date): number {
  return chicagoDay(now) >= "2027-09-17" ? 1_000_000_000 : 100_000_000;
}

/** Refuses an ACH_SAME_DAY entry above the cap: rejected, never downgraded to ACH (interface Limits). */
export function checkRailCap(rail: PayoutRail, entryAmount: number, now: Date): void {
  const cap = sameDayCap(now);
  if (rail === "ACH_SAME_DAY" && entryAmount > cap) {
    throw new ApiError("AMOUNT_OUT_OF_RANGE", {
      reason: `An ACH_SAME_DAY entry of ${entryAmount} is above the per-entry cap of ${cap}.`,
    });
  }
}

/** Monday to Friday in America/Chicago, excluding Federal Reserve holidays (conventions §1.5). */
export function isBusinessDay(date: string): boolean {
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !fedHolidays.has(date);
}

function nextBusinessDay(date: string): string {
  let day = new Date(`${date}T12:00:00Z`);
  do day = new Date(day.getTime() + 86_400_000);
  while (!isBusinessDay(day.toISOString().slice(0, 10)));
  return day.toISOString().slice(0, 10);
}

/** The instant of a Chicago wall time on a date; the offset is read at that instant (DST-safe). */
function chicagoInstant(date: string, hour: number): Date {
  const guess = new Date(`${date}T${String(hour).padStart(2, "0")}:00:00Z`);
  const first = new Date(guess.getTime() - chicagoOffsetMinutes(guess) * 60_000);
  return new Date(guess.getTime() - chicagoOffsetMinutes(first) * 60_000);
}

/**
 * When a payout executed at `now` settles in the sandbox: ACH the next business day; ACH_SAME_DAY the
 * same business day before the cut-off, else the next business day; both at 17:00 Chicago.
 */
export function expectedSettlement(rail: PayoutRail, now: Date): Date {
  const today = chicagoDay(now);
  const wall = chicagoWallTime(now);
  const beforeCutoff = wall.hour * 60 + wall.minute < SAME_DAY_CUTOFF.hour * 60 + SAME_DAY_CUTOFF.minute;
  const sameDay = rail === "ACH_SAME_DAY" && isBusinessDay(today) && beforeCutoff;
  return chicagoInstant(sameDay ? today : nextBusinessDay(today), SETTLEMENT_HOUR);
}
