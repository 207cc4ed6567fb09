/**
 * Statement periods are calendar months in US Central time (interface "Periodic statement rules" 1;
 * "List balance changes" rule 2): both ends are written with the `America/Chicago` offset of that instant,
 * which differs between the ends of March (-06:00 → -05:00) and November (-05:00 → -06:00). Computed with
 * `Intl.DateTimeFormat` so the SDK needs no time-zone dependency.
 */

export const STATEMENT_TIME_ZONE = "America/Chicago";

/** One statement month: `[start, end)`, both instants with Chicago's offset at that instant. */
export interface StatementPeriod {
  /** `YYYY-MM`. */
  month: string;
  /** First instant of the month, e.g. `2026-10-01T00:00:00-05:00`. */
  start: string;
  /** First instant of the next month (exclusive), e.g. `2026-11-01T00:00:00-05:00`. */
  end: string;
}

const wallClock = new Intl.DateTimeFormat("en-US", {
  timeZone: STATEMENT_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallTime(epochMs: number): WallTime {
  const fields: Record<string, number> = {};
  for (const part of wallClock.formatToParts(new Date(epochMs))) {
    if (part.type !== "literal") fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year ?? Number.NaN,
    month: fields.month ?? Number.NaN,
    day: fields.day ?? Number.NaN,
    hour: fields.hour ?? Number.NaN,
    minute: fields.minute ?? Number.NaN,
    second: fields.second ?? Number.NaN,
  };
}

function wallMs(t: WallTime): number {
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
}

/** Chicago's UTC offset in minutes at an instant: -300 (CDT) or -360 (CST). */
export function chicagoOffsetMinutes(epochMs: number): number {
  const wholeSecond = Math.floor(epochMs / 1000) * 1000;
  return Math.round((wallMs(wallTime(wholeSecond)) - wholeSecond) / 60_000);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** An instant as Chicago wall time with its offset, to the second: `2026-03-01T00:00:00-06:00`. */
export function toChicagoDateTime(epochMs: number): string {
  const t = wallTime(epochMs);
  const date = `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;
  return `${date}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${offsetText(chicagoOffsetMinutes(epochMs))}`;
}

/** The Chicago calendar date (`YYYY-MM-DD`) of an RFC 3339 instant. */
export function chicagoDate(instant: string): string {
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) throw new TypeError(`Not a date-time: ${instant}`);
  return toChicagoDateTime(ms).slice(0, 10);
}

/** The instant Chicago's wall clock reads midnight on the first of `month` (1–12) of `year`. */
function chicagoMonthStartMs(year: number, month: number): number {
  const local = Date.UTC(year, month - 1, 1);
  // Two passes: the offset is read at the guessed instant, which lands on the right side of any change.
  let utc = local - chicagoOffsetMinutes(local) * 60_000;
  utc = local - chicagoOffsetMinutes(utc) * 60_000;
  return utc;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The statement period of `month` (`YYYY-MM`); anything else is a TypeError. */
export function statementPeriod(month: string): StatementPeriod {
  const match = MONTH.exec(month);
  if (!match) throw new TypeError(`month must be YYYY-MM (e.g. 2026-10), not ${JSON.stringify(month)}.`);
  const year = Number(match[1]);
  const index = Number(match[2]);
  if (year < 1970) throw new TypeError(`month must be 1970-01 or later, not ${month}.`);
  const [nextYear, nextMonth] = index === 12 ? [year + 1, 1] : [year, index + 1];
  return {
    month,
    start: toChicagoDateTime(chicagoMonthStartMs(year, index)),
    end: toChicagoDateTime(chicagoMonthStartMs(nextYear, nextMonth)),
  };
}

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** `2026-10` → `October 2026`. */
export function monthLabel(month: string): string {
  const [year, index] = month.split("-");
  return `${MONTH_NAMES[Number(index) - 1] ?? "?"} ${year}`;
}

/** `2026-10-31` → `October 31, 2026`. */
export function dateLabel(date: string): string {
  const [year, index, day] = date.split("-");
  return `${MONTH_NAMES[Number(index) - 1] ?? "?"} ${Number(day)}, ${year}`;
}

/** The last calendar day of the period (the day before `end`), as `YYYY-MM-DD`. */
export function lastDayOf(period: StatementPeriod): string {
  return chicagoDate(new Date(Date.parse(period.end) - 1).toISOString());
}
