import Holidays from "date-holidays";
import { addDays, weekdayOf } from "./local-time.js";

/**
 * Banking-day calendars, from the maintained holiday library `date-holidays` (docs/guides/rails.md
 * "Calendars"). A calendar is named by an ISO 3166-1 alpha-2 country code, by an ISO 3166-2 subdivision
 * where the financial centre keeps regional bank holidays the national list lacks (`GB-ENG` for London,
 * `CA-ON` for Toronto, `IN-MH` for Mumbai), or `TARGET2` for the euro.
 *
 * - A banking day is a day outside the calendar's weekend that no `public` or `bank` holiday of the
 *   library closes. `optional`, `school` and `observance` days stay open; a holiday that starts after
 *   midnight (a half day, such as CN's 12:00 holidays) does not close the day; a multi-day holiday
 *   (`P3D`) closes each of its days.
 * - `US` is the Federal Reserve's calendar (conventions §1.5): the federal holidays, a Sunday holiday
 *   observed the Monday after, and a Saturday holiday NOT moved. The library observes a Saturday
 *   holiday on the Friday before (a substitute day), which the Fed does not, so substitute days that
 *   fall on a Friday are dropped: 2026-07-03, 2027-06-18, 2027-12-24, 2027-12-31 and 2028-11-10 are
 *   banking days.
 * - `TARGET2` (T2, the Eurosystem's settlement system) closes on its fixed days only: 1 January, Good
 *   Friday, Easter Monday, 1 May, 25 and 26 December, with the library's Easter computation.
 */
export type CalendarId = string;

export const TARGET2: CalendarId = "TARGET2";

/** Closing days of TARGET2, as date-holidays rules (Easter Sunday is `easter`). */
const target2Rules: readonly [rule: string, name: string][] = [
  ["01-01", "New Year's Day"],
  ["easter -2", "Good Friday"],
  ["easter 1", "Easter Monday"],
  ["05-01", "Labour Day"],
  ["12-25", "Christmas Day"],
  ["12-26", "Christmas Holiday"],
];

/**
 * Weekends other than Saturday–Sunday: Bangladesh and Egypt rest on Friday and Saturday. (The UAE moved
 * to Saturday–Sunday on 2022-01-01.) The library names one "day off" only, so the weekend is ours.
 */
const weekends: Record<string, readonly number[]> = { BD: [5, 6], EG: [5, 6] };
const SATURDAY_SUNDAY: readonly number[] = [6, 0];

const DAY_MS = 86_400_000;

const libraries = new Map<CalendarId, Holidays>();
const closedByYear = new Map<string, ReadonlySet<string>>();

function libraryFor(calendar: CalendarId): Holidays {
  let library = libraries.get(calendar);
  if (library) return library;
  if (calendar === TARGET2) {
    library = new Holidays();
    for (const [rule, name] of target2Rules) library.setHoliday(rule, { name, type: "public" });
  } else {
    const [country = "", state] = calendar.split("-");
    const countries = new Holidays().getCountries();
    const known = /^[A-Z]{2}$/.test(country) && country in countries;
    if (!known || (state !== undefined && !(state in (new Holidays().getStates(country) ?? {})))) {
      throw new RangeError(`No banking calendar for ${calendar}`);
    }
    library =
      state === undefined
        ? new Holidays(country, { types: ["public", "bank"] })
        : new Holidays(country, state, { types: ["public", "bank"] });
  }
  libraries.set(calendar, library);
  return library;
}

/** The days of `year` (and any that a late-December holiday spills into) that the calendar closes. */
function closedDays(calendar: CalendarId, year: number): ReadonlySet<string> {
  const key = `${calendar}:${year}`;
  const cached = closedByYear.get(key);
  if (cached) return cached;
  const closed = new Set<string>();
  for (const holiday of libraryFor(calendar).getHolidays(year)) {
    if (holiday.type !== "public" && holiday.type !== "bank") continue;
    // `date` is the local start, "YYYY-MM-DD hh:mm:ss[ ±hhmm]": a start after midnight is a half day.
    if (holiday.date.slice(11, 19) !== "00:00:00") continue;
    const first = holiday.date.slice(0, 10);
    if (calendar === "US" && holiday.substitute && weekdayOf(first) === 5) continue;
    const days = Math.max(1, Math.round((holiday.end.getTime() - holiday.start.getTime()) / DAY_MS));
    for (let day = 0; day < days; day++) closed.add(addDays(first, day));
  }
  closedByYear.set(key, closed);
  return closed;
}

/** Whether `date` (`YYYY-MM-DD`, the calendar's local date) is a banking day of `calendar`. */
export function isBankingDay(calendar: CalendarId, date: string): boolean {
  const weekend = weekends[calendar.slice(0, 2)] ?? SATURDAY_SUNDAY;
  if (weekend.includes(weekdayOf(date))) return false;
  const year = Number(date.slice(0, 4));
  // A holiday that began in the previous December can still close early-January days.
  return !closedDays(calendar, year).has(date) && !closedDays(calendar, year - 1).has(date);
}

/** The first banking day strictly after `date`. */
export function nextBankingDay(calendar: CalendarId, date: string): string {
  let day = addDays(date, 1);
  while (!isBankingDay(calendar, day)) day = addDays(day, 1);
  return day;
}

/**
 * The `n`-th banking day counted from `date`: n = 0 is `date` itself when it is a banking day, else the
 * next one; n ≥ 1 is the n-th banking day strictly after `date`.
 */
export function bankingDayFrom(calendar: CalendarId, date: string, n: number): string {
  if (n === 0) return isBankingDay(calendar, date) ? date : nextBankingDay(calendar, date);
  let day = date;
  for (let i = 0; i < n; i++) day = nextBankingDay(calendar, day);
  return day;
}
