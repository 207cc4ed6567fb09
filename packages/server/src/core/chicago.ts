/**
 * US Central time (`America/Chicago`) for statement periods (interface "Periodic statement rules" 1),
 * from the runtime's time-zone data through Intl: no dependency. Chicago's offset changes twice a year
 * (CST -06:00, CDT -05:00), so March and November start and end with different offsets.
 */
export const STATEMENT_TIME_ZONE = "America/Chicago";

const MINUTE_MS = 60_000;

// One formatter for the process; h23 so midnight is hour 0, never 24.
const wallFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: STATEMENT_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});

/** A local date and time on the Chicago wall clock (month 1–12), without milliseconds. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** UTC milliseconds of a wall time read as if it were UTC; years below 100 are not shifted to 19xx. */
function utcMs(year: number, month: number, day = 1, hour = 0, minute = 0, second = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

/** The Chicago wall clock at an instant. */
export function chicagoWallTime(instant: Date): WallTime {
  const part: Record<string, number> = {};
  for (const { type, value } of wallFormat.formatToParts(instant)) part[type] = Number(value);
  return {
    year: part.year ?? 0,
    month: part.month ?? 0,
    day: part.day ?? 0,
    hour: part.hour ?? 0,
    minute: part.minute ?? 0,
    second: part.second ?? 0,
  };
}

/** Chicago's UTC offset at an instant in milliseconds (local minus UTC; negative). */
function offsetMs(instant: Date): number {
  const whole = instant.getTime() - (((instant.getTime() % 1000) + 1000) % 1000);
  const w = chicagoWallTime(instant);
  return utcMs(w.year, w.month, w.day, w.hour, w.minute, w.second) - whole;
}

/** Chicago's UTC offset at an instant in whole minutes: -300 (CDT) or -360 (CST) in modern times. */
export function chicagoOffsetMinutes(instant: Date): number {
  return Math.round(offsetMs(instant) / MINUTE_MS);
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, "0");

/** `±hh:mm` for an offset in minutes. */
export function formatOffset(minutes: number): string {
  return `${minutes < 0 ? "-" : "+"}${pad(Math.trunc(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * RFC 3339 with the Chicago offset of the instant (`2026-10-01T00:00:00-05:00`); milliseconds appear
 * only when non-zero. The wall time is derived from the written offset, so the text is always exactly
 * the instant (also for pre-1883 local mean time, whose offset is not a whole number of minutes).
 */
export function formatChicago(instant: Date): string {
  const minutes = chicagoOffsetMinutes(instant);
  const local = new Date(instant.getTime() + minutes * MINUTE_MS);
  const ms = local.getUTCMilliseconds();
  const year = local.getUTCFullYear();
  const date = `${year < 0 ? "-" : ""}${pad(year, 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  return `${date}T${time}${ms === 0 ? "" : `.${pad(ms, 3)}`}${formatOffset(minutes)}`;
}

/**
 * The first instant of a Chicago calendar month (month may overflow: 13 is January of the next year).
 * Chicago changes offset at 02:00 local, so local midnight always exists and is unambiguous.
 */
export function chicagoMonthStart(year: number, month: number): Date {
  const wall = utcMs(year, month);
  const guess = wall - offsetMs(new Date(wall));
  return new Date(wall - offsetMs(new Date(guess)));
}

/** A statement period: one Chicago calendar month, `[start, end)`. */
export interface StatementPeriod {
  start: Date;
  end: Date;
}

/** The Chicago calendar month containing an instant. */
export function chicagoMonthOf(instant: Date): StatementPeriod {
  const { year, month } = chicagoWallTime(instant);
  return { start: chicagoMonthStart(year, month), end: chicagoMonthStart(year, month + 1) };
}

/** The period `[from, to)` when it is exactly one Chicago calendar month (compared as instants), else null. */
export function exactChicagoMonth(from: Date, to: Date): StatementPeriod | null {
  const period = chicagoMonthOf(from);
  return period.start.getTime() === from.getTime() && period.end.getTime() === to.getTime() ? period : null;
}

const writtenOffset = /(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** The offset written at the end of an RFC 3339 date-time, in minutes (`Z` is 0); null if none. */
export function writtenOffsetMinutes(text: string): number | null {
  const match = writtenOffset.exec(text);
  if (!match) return null;
  if (match[1] === undefined) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === "-" ? -minutes : minutes;
}

/** The Chicago calendar date of an instant, `YYYY-MM-DD` (a business day, a day of volume). */
export function chicagoDay(instant: Date): string {
  const w = chicagoWallTime(instant);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** The next America/Chicago midnight after an instant (local midnight always exists: DST moves at 02:00). */
export function nextChicagoMidnight(instant: Date): Date {
  const w = chicagoWallTime(instant);
  const wall = Date.UTC(w.year, w.month - 1, w.day + 1);
  const offsetAt = (ms: number) => chicagoOffsetMinutes(new Date(ms)) * 60_000;
  return new Date(wall - offsetAt(wall - offsetAt(wall)));
}
