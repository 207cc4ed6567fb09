import { describe, expect, test } from "vitest";
import { formats, isDateTime } from "./formats.js";

describe("input formats (conventions §1.5, FieldConstraint)", () => {
  test.each([
    ["2026-10-01T00:00:00-05:00", true],
    ["2026-10-01T05:00:00.123Z", true],
    ["2026-10-01T05:00:00Z", true],
    ["2026-10-01T05:00:00", false],
    ["2026-10-01T05:00:00.1234Z", false],
    ["2026-02-30T00:00:00Z", false],
    ["2026-10-01 05:00:00Z", false],
  ])("date-time %s needs an explicit offset and at most 3 fractional digits -> %s", (value, ok) => {
    expect(isDateTime(value)).toBe(ok);
  });

  test.each([
    ["e.164", "+14155550123", true],
    ["e.164", "4155550123", false],
    ["iso3166-1-alpha-2", "US", true],
    ["iso3166-1-alpha-2", "XX", false],
    ["date", "2024-02-29", true],
    ["date", "2023-02-29", false],
    ["email", "a@b.co", true],
    ["email", "a@b", false],
    ["url", "https://example.com/hook", true],
    ["url", "ftp://example.com", false],
    ["ip", "203.0.113.9", true],
    ["ip", "::1", true],
    ["ip", "300.1.1.1", false],
    ["aba-routing-number", "123456780", true],
    ["aba-routing-number", "021000021", true],
    ["aba-routing-number", "123456789", false],
    ["aba-routing-number", "12345678", false],
  ])("format %s accepts %s -> %s", (format, value, ok) => {
    expect(formats[format]?.(value)).toBe(ok);
  });
});
