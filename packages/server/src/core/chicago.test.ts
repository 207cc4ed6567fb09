import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  chicagoMonthOf,
  chicagoMonthStart,
  chicagoOffsetMinutes,
  chicagoWallTime,
  exactChicagoMonth,
  formatChicago,
  formatOffset,
  writtenOffsetMinutes,
} from "./chicago.js";

const at = (iso: string) => new Date(iso);

describe("America/Chicago time for statement periods", () => {
  test.each([
    ["2026-01-15T12:00:00Z", -360],
    ["2026-07-15T12:00:00Z", -300],
    ["2026-03-08T07:59:59.999Z", -360],
    ["2026-03-08T08:00:00Z", -300],
    ["2026-11-01T06:59:59.999Z", -300],
    ["2026-11-01T07:00:00Z", -360],
  ])("the offset at %s is %i minutes (CST -06:00, CDT -05:00, switching at 02:00 local)", (iso, minutes) => {
    expect(chicagoOffsetMinutes(at(iso))).toBe(minutes);
  });

  test.each([
    [2026, 1, "2026-01-01T06:00:00.000Z"],
    [2026, 3, "2026-03-01T06:00:00.000Z"],
    [2026, 4, "2026-04-01T05:00:00.000Z"],
    [2026, 10, "2026-10-01T05:00:00.000Z"],
    [2026, 11, "2026-11-01T05:00:00.000Z"],
    [2026, 12, "2026-12-01T06:00:00.000Z"],
    [2026, 13, "2027-01-01T06:00:00.000Z"],
    [2024, 2, "2024-02-01T06:00:00.000Z"],
  ])("the month %i-%i starts at %s", (year, month, iso) => {
    expect(chicagoMonthStart(year, month).toISOString()).toBe(iso);
  });

  test("March and November start and end with different offsets", () => {
    const march = chicagoMonthOf(at("2026-03-20T12:00:00Z"));
    expect(formatChicago(march.start)).toBe("2026-03-01T00:00:00-06:00");
    expect(formatChicago(march.end)).toBe("2026-04-01T00:00:00-05:00");
    const november = chicagoMonthOf(at("2026-11-20T12:00:00Z"));
    expect(formatChicago(november.start)).toBe("2026-11-01T00:00:00-05:00");
    expect(formatChicago(november.end)).toBe("2026-12-01T00:00:00-06:00");
    // 24 h less one in March, 24 h more in November than the month's days suggest.
    expect(march.end.getTime() - march.start.getTime()).toBe((31 * 24 - 1) * 3_600_000);
    expect(november.end.getTime() - november.start.getTime()).toBe((30 * 24 + 1) * 3_600_000);
  });

  test("an instant just before local midnight belongs to the earlier month", () => {
    expect(formatChicago(chicagoMonthOf(at("2026-10-01T04:59:59.999Z")).start)).toBe(
      "2026-09-01T00:00:00-05:00",
    );
    expect(formatChicago(chicagoMonthOf(at("2026-10-01T05:00:00.000Z")).start)).toBe(
      "2026-10-01T00:00:00-05:00",
    );
  });

  test.each([
    ["2026-10-01T05:00:00.000Z", "2026-10-01T00:00:00-05:00"],
    ["2026-12-01T06:00:00.000Z", "2026-12-01T00:00:00-06:00"],
    ["2026-03-08T08:00:00.000Z", "2026-03-08T03:00:00-05:00"],
    ["2026-11-01T06:30:00.000Z", "2026-11-01T01:30:00-05:00"],
    ["2026-11-01T07:30:00.000Z", "2026-11-01T01:30:00-06:00"],
    ["2026-10-01T05:00:00.120Z", "2026-10-01T00:00:00.120-05:00"],
  ])("%s is written %s (milliseconds only when non-zero)", (iso, text) => {
    expect(formatChicago(at(iso))).toBe(text);
  });

  test("formatting keeps the instant and the Chicago wall clock", () => {
    fc.assert(
      fc.property(
        fc.date({ min: at("1970-01-01T00:00:00Z"), max: at("2100-01-01T00:00:00Z"), noInvalidDate: true }),
        (instant) => {
          const text = formatChicago(instant);
          expect(new Date(text).getTime()).toBe(instant.getTime());
          expect(writtenOffsetMinutes(text)).toBe(chicagoOffsetMinutes(instant));
          const wall = chicagoWallTime(instant);
          expect(text.slice(0, 19)).toBe(
            `${String(wall.year).padStart(4, "0")}-${String(wall.month).padStart(2, "0")}-${String(wall.day).padStart(2, "0")}T${String(wall.hour).padStart(2, "0")}:${String(wall.minute).padStart(2, "0")}:${String(wall.second).padStart(2, "0")}`,
          );
        },
      ),
    );
  });

  test("months tile: each instant lies in [start, end) of its month and the next month starts at end", () => {
    fc.assert(
      fc.property(
        fc.date({ min: at("1970-01-01T00:00:00Z"), max: at("2100-01-01T00:00:00Z"), noInvalidDate: true }),
        (instant) => {
          const month = chicagoMonthOf(instant);
          expect(month.start.getTime()).toBeLessThanOrEqual(instant.getTime());
          expect(instant.getTime()).toBeLessThan(month.end.getTime());
          expect(chicagoMonthOf(month.end).start.getTime()).toBe(month.end.getTime());
          expect(formatChicago(month.start)).toMatch(/^\d{4}-\d{2}-01T00:00:00-0[56]:00$/);
        },
      ),
    );
  });

  test("a window is an exact month only when both ends are consecutive month starts, compared as instants", () => {
    const october = exactChicagoMonth(at("2026-10-01T00:00:00-05:00"), at("2026-11-01T00:00:00-05:00"));
    expect(october?.start.toISOString()).toBe("2026-10-01T05:00:00.000Z");
    expect(exactChicagoMonth(at("2026-10-01T05:00:00Z"), at("2026-11-01T05:00:00Z"))).not.toBeNull();
    expect(exactChicagoMonth(at("2026-10-01T00:00:00Z"), at("2026-11-01T00:00:00Z"))).toBeNull();
    expect(exactChicagoMonth(at("2026-10-01T05:00:00Z"), at("2026-12-01T06:00:00Z"))).toBeNull();
    expect(exactChicagoMonth(at("2026-10-01T05:00:00Z"), at("2026-11-01T05:00:00.001Z"))).toBeNull();
  });

  test.each([
    ["2026-10-01T00:00:00-05:00", -300],
    ["2026-10-01T05:00:00Z", 0],
    ["2026-10-01T10:30:00+05:30", 330],
    ["2026-10-01T05:00:00", null],
  ])("the written offset of %s is %s minutes", (text, minutes) => {
    expect(writtenOffsetMinutes(text)).toBe(minutes);
  });

  test.each([
    [-300, "-05:00"],
    [-360, "-06:00"],
    [330, "+05:30"],
    [0, "+00:00"],
  ])("offset %i minutes is written %s", (minutes, text) => {
    expect(formatOffset(minutes)).toBe(text);
  });
});
