import { describe, expect, test } from "vitest";
import { statementPeriod, toChicagoDateTime } from "../src/index.js";
import { chicagoDate, chicagoOffsetMinutes, lastDayOf } from "../src/statements/period.js";

// 2026: DST starts Sunday March 8 and ends Sunday November 1 at 02:00 local, so March opens in CST and
// closes in CDT, and November opens in CDT (midnight is before the 02:00 change) and closes in CST.
const months2026: [string, string, string][] = [
  ["2026-01", "2026-01-01T00:00:00-06:00", "2026-02-01T00:00:00-06:00"],
  ["2026-02", "2026-02-01T00:00:00-06:00", "2026-03-01T00:00:00-06:00"],
  ["2026-03", "2026-03-01T00:00:00-06:00", "2026-04-01T00:00:00-05:00"],
  ["2026-04", "2026-04-01T00:00:00-05:00", "2026-05-01T00:00:00-05:00"],
  ["2026-05", "2026-05-01T00:00:00-05:00", "2026-06-01T00:00:00-05:00"],
  ["2026-06", "2026-06-01T00:00:00-05:00", "2026-07-01T00:00:00-05:00"],
  ["2026-07", "2026-07-01T00:00:00-05:00", "2026-08-01T00:00:00-05:00"],
  ["2026-08", "2026-08-01T00:00:00-05:00", "2026-09-01T00:00:00-05:00"],
  ["2026-09", "2026-09-01T00:00:00-05:00", "2026-10-01T00:00:00-05:00"],
  ["2026-10", "2026-10-01T00:00:00-05:00", "2026-11-01T00:00:00-05:00"],
  ["2026-11", "2026-11-01T00:00:00-05:00", "2026-12-01T00:00:00-06:00"],
  ["2026-12", "2026-12-01T00:00:00-06:00", "2027-01-01T00:00:00-06:00"],
];

describe("statement period: a calendar month in America/Chicago, each end with that instant's offset", () => {
  test.each(months2026)("%s is [%s, %s)", (month, start, end) => {
    expect(statementPeriod(month)).toEqual({ month, start, end });
  });

  test.each(months2026)("%s: both ends are Chicago midnight, and consecutive months tile", (month, start) => {
    const period = statementPeriod(month);
    for (const instant of [period.start, period.end]) {
      expect(toChicagoDateTime(Date.parse(instant))).toBe(instant);
      expect(instant).toMatch(/-\d\d-01T00:00:00-0[56]:00$/);
    }
    const index = months2026.findIndex(([m]) => m === month);
    const next = months2026[index + 1];
    if (next) expect(next[1]).toBe(period.end);
    expect(Date.parse(start)).toBe(Date.parse(period.start));
  });

  test("the offset is read at each instant: -06:00 before 2026-03-08T08:00Z, -05:00 from it", () => {
    expect(chicagoOffsetMinutes(Date.parse("2026-03-08T07:59:59Z"))).toBe(-360);
    expect(chicagoOffsetMinutes(Date.parse("2026-03-08T08:00:00Z"))).toBe(-300);
    expect(chicagoOffsetMinutes(Date.parse("2026-11-01T06:59:59Z"))).toBe(-300);
    expect(chicagoOffsetMinutes(Date.parse("2026-11-01T07:00:00Z"))).toBe(-360);
  });

  test("a line's date is the Chicago calendar date of its instant", () => {
    expect(chicagoDate("2026-11-01T04:59:59.999Z")).toBe("2026-10-31");
    expect(chicagoDate("2026-11-01T05:00:00.000Z")).toBe("2026-11-01");
    expect(chicagoDate("2026-03-01T05:59:59Z")).toBe("2026-02-28");
  });

  test("the last day of a period is the day before its exclusive end (leap years included)", () => {
    expect(lastDayOf(statementPeriod("2026-02"))).toBe("2026-02-28");
    expect(lastDayOf(statementPeriod("2028-02"))).toBe("2028-02-29");
    expect(lastDayOf(statementPeriod("2026-12"))).toBe("2026-12-31");
  });

  test.each(["2026-13", "2026-00", "2026-1", "26-10", "2026-10-01", "", "1969-12"])(
    "month %j is refused with a TypeError",
    (month) => {
      expect(() => statementPeriod(month)).toThrow(TypeError);
    },
  );
});
