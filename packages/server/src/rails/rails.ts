import { chicagoDay } from "../core/chicago.js";
import { ApiError } from "../core/errors/api-error.js";
import { bankingDayFrom, isBankingDay } from "./calendars.js";
import { corridorFor, routeOf } from "./corridors.js";
import { localTime, zonedInstant } from "./local-time.js";
import {
  INSTANT_SETTLEMENT_SECONDS,
  type PaymentRail,
  railProfiles,
  SAME_DAY_CUTOFF,
  SETTLEMENT_HOUR,
} from "./payment-rails.js";

export { isBankingDay, nextBankingDay } from "./calendars.js";
export { type PaymentRail, paymentRails, type RailKind, railKind } from "./payment-rails.js";
export { SAME_DAY_CUTOFF, SETTLEMENT_HOUR };

/** The rails a USD payout to a USD_ACCOUNT may pin today (conventions §3.5). */
export const payoutRails = ["ACH", "ACH_SAME_DAY"] as const;
export type PayoutRail = (typeof payoutRails)[number];

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

/**
 * Monday to Friday in America/Chicago, excluding Federal Reserve holidays (conventions §1.5): the `US`
 * calendar of calendars.ts, from date-holidays.
 */
export function isBusinessDay(date: string): boolean {
  return isBankingDay("US", date);
}

export interface SettlementInput {
  rail: PaymentRail;
  /** The receiving currency: its corridor gives the calendar and time zone. */
  currency: string;
  /** Execution time on the platform clock. */
  now: Date;
}

/**
 * When a payout executed at `now` settles in the sandbox (docs/guides/rails.md "Settlement"):
 * - instant rails: INSTANT_SETTLEMENT_SECONDS later, whatever the day;
 * - batch and wire rails: at SETTLEMENT_HOUR local on the rail's banking day of the corridor's calendar,
 *   counted from the local date of `now` (`settlementDays`, one more when a banking day's cut-off has
 *   passed). ACH: next banking day; ACH_SAME_DAY and WIRE: the same banking day before the cut-off;
 *   batch rails: the next banking day; SWIFT: the second banking day.
 * A rail the corridor does not serve is a programming error (rail selection refuses it first).
 */
export function expectedSettlementFor({ rail, currency, now }: SettlementInput): Date {
  const profile = railProfiles[rail];
  if (profile.kind === "instant") return new Date(now.getTime() + INSTANT_SETTLEMENT_SECONDS * 1000);
  const route = routeOf(currency, rail);
  if (!route) {
    const known = corridorFor(currency) ? "does not serve" : "has no corridor for";
    throw new RangeError(`The corridor table ${known} ${currency} over ${rail}`);
  }
  const { calendar, timeZone } = route.market;
  const local = localTime(timeZone, now);
  const { cutoff } = profile;
  const pastCutoff =
    cutoff !== undefined &&
    isBankingDay(calendar, local.date) &&
    local.hour * 60 + local.minute >= cutoff.hour * 60 + cutoff.minute;
  const day = bankingDayFrom(calendar, local.date, profile.settlementDays + (pastCutoff ? 1 : 0));
  return zonedInstant(timeZone, day, SETTLEMENT_HOUR);
}

/**
 * When a USD payout over ACH or ACH_SAME_DAY executed at `now` settles in the sandbox: ACH the next
 * business day; ACH_SAME_DAY the same business day before the cut-off, else the next business day; both
 * at 17:00 Chicago.
 */
export function expectedSettlement(rail: PayoutRail, now: Date): Date {
  return expectedSettlementFor({ rail, currency: "USD", now });
}
