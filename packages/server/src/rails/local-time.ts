/**
 * Wall-clock time in any IANA time zone, from the runtime's time-zone data through Intl (no dependency),
 * for the settlement calendars of the corridors. `core/chicago.ts` does the same for America/Chicago
 * only; the two agree there (rails.test.ts checks it).
 */

/** A wall-clock time (month 1–12), without seconds. */
export interface LocalTime {
  /** `YYYY-MM-DD` */
  date: string;
  hour: number;
  minute: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

// One formatter per zone for the process; h23 so midnight is hour 0, never 24.
function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formats.set(timeZone, format);
  }
  return format;
}

function parts(timeZone: string, instant: Date): Record<string, number> {
  const part: Record<string, number> = {};
  for (const { type, value } of formatFor(timeZone).formatToParts(instant)) part[type] = Number(value);
  return part;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The wall clock of `timeZone` at an instant. */
export function localTime(timeZone: string, instant: Date): LocalTime {
  const p = parts(timeZone, instant);
  return {
    date: `${pad(p.year ?? 0, 4)}-${pad(p.month ?? 0)}-${pad(p.day ?? 0)}`,
    hour: p.hour ?? 0,
    minute: p.minute ?? 0,
  };
}

/** The zone's UTC offset at an instant, in milliseconds (local minus UTC). */
function offsetMs(timeZone: string, instant: Date): number {
  const p = parts(timeZone, instant);
  const wall = Date.UTC(
    p.year ?? 0,
    (p.month ?? 1) - 1,
    p.day ?? 1,
    p.hour ?? 0,
    p.minute ?? 0,
    p.second ?? 0,
  );
  return wall - (instant.getTime() - (((instant.getTime() % 1000) + 1000) % 1000));
}

/**
 * The instant of a wall time on a date in `timeZone`. The offset is read twice, the second time at the
 * first estimate, so a date on which the offset changes (daylight saving) still lands on the wall time.
 * Settlement hours are afternoon times, which no zone skips or repeats.
 */
export function zonedInstant(timeZone: string, date: string, hour: number, minute = 0): Date {
  const wall = Date.parse(`${date}T${pad(hour)}:${pad(minute)}:00Z`);
  const first = wall - offsetMs(timeZone, new Date(wall));
  return new Date(wall - offsetMs(timeZone, new Date(first)));
}

/** The calendar date `days` after `date` (both `YYYY-MM-DD`). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The weekday of a `YYYY-MM-DD` date: 0 Sunday … 6 Saturday. */
export function weekdayOf(date: string): number {
  return new Date(`${date}T12:00:00Z`).getUTCDay();
}
