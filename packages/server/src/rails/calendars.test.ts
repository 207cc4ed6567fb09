import { describe, expect, test } from "vitest";
import { bankingDayFrom, isBankingDay, nextBankingDay, TARGET2 } from "./calendars.js";
import { addDays } from "./local-time.js";
import { isBusinessDay } from "./rails.js";

/**
 * The Federal Reserve holidays 2026-2028 as rails.ts kept them by hand before the calendar moved onto
 * date-holidays (docs/decisions.md "Settlement schedule"): Sunday holidays observed Monday, Saturday
 * holidays not moved.
 */
const oldFedTable = new Set([
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

function oldIsBusinessDay(date: string): boolean {
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !oldFedTable.has(date);
}

function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** Weekdays (Mon–Fri) of a range that a calendar closes. */
const closedWeekdays = (calendar: string, from: string, to: string) =>
  daysOf(from, to).filter((day) => {
    const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
    return weekday !== 0 && weekday !== 6 && !isBankingDay(calendar, day);
  });

describe("the Federal Reserve calendar (US) from date-holidays", () => {
  test("equals the old hand-kept table on every day of 2026-2028", () => {
    const differences = daysOf("2026-01-01", "2028-12-31").filter(
      (day) =>
        isBusinessDay(day) !== oldIsBusinessDay(day) || isBankingDay("US", day) !== oldIsBusinessDay(day),
    );
    expect(differences).toEqual([]);
  });

  test.each(["2026-07-03", "2027-06-18", "2027-12-24", "2027-12-31", "2028-11-10"])(
    "a Saturday holiday is not moved: the Friday before (%s) is a business day",
    (friday) => {
      expect(isBusinessDay(friday)).toBe(true);
    },
  );

  test("a Sunday holiday is observed the Monday after (2027-07-05)", () => {
    expect(isBusinessDay("2027-07-05")).toBe(false);
  });

  test("optional and observance days stay open (Christmas Eve, the day after Thanksgiving)", () => {
    expect(isBusinessDay("2026-12-24")).toBe(true);
    expect(isBusinessDay("2026-11-27")).toBe(true);
  });
});

describe("TARGET2 closes on 1 Jan, Good Friday, Easter Monday, 1 May, 25 and 26 Dec only", () => {
  test.each([
    ["2026", ["2026-01-01", "2026-04-03", "2026-04-06", "2026-05-01", "2026-12-25"]],
    ["2027", ["2027-01-01", "2027-03-26", "2027-03-29"]],
    ["2028", ["2028-04-14", "2028-04-17", "2028-05-01", "2028-12-25", "2028-12-26"]],
  ])("the weekdays TARGET2 closes in %s", (year, expected) => {
    expect(closedWeekdays(TARGET2, `${year}-01-01`, `${year}-12-31`)).toEqual(expected);
  });

  test("a euro country's own holiday does not close TARGET2 (Whit Monday 2026-05-25 closes German banks)", () => {
    expect(isBankingDay(TARGET2, "2026-05-25")).toBe(true);
    expect(isBankingDay("DE", "2026-05-25")).toBe(false);
  });
});

describe("each country's banking calendar", () => {
  test.each([
    ["MX", "2026-09-16", "Independence Day"],
    ["MX", "2026-12-12", "Virgin of Guadalupe (a bank holiday)"],
    ["MX", "2026-04-02", "Holy Thursday (a bank holiday)"],
    ["BR", "2026-02-16", "Carnival Monday (a bank holiday)"],
    ["BR", "2026-02-17", "Carnival Tuesday (a bank holiday)"],
    ["BR", "2026-11-20", "Black Consciousness Day"],
    ["IN", "2026-01-26", "Republic Day"],
    ["PH", "2026-12-30", "Rizal Day"],
    ["CO", "2026-01-12", "Epiphany, moved to Monday"],
    ["SV", "2026-09-15", "Independence Day"],
    ["GB-ENG", "2026-08-31", "the summer bank holiday of England (London)"],
    ["IN-MH", "2026-05-01", "Maharashtra Day (Mumbai)"],
    ["CA-ON", "2026-10-12", "Thanksgiving (Toronto)"],
    ["CN", "2026-10-02", "National Day week"],
  ])("%s closes on %s (%s)", (calendar, date) => {
    expect(isBankingDay(calendar, date)).toBe(false);
  });

  test("a multi-day holiday closes each of its days (Egypt's Eid al-Fitr 2026: Friday 03-20 to Sunday 03-22)", () => {
    // Egypt's weekend is Friday and Saturday, so Sunday 03-22 is closed by the third day of the holiday only.
    expect(
      ["2026-03-19", "2026-03-22", "2026-03-23", "2026-03-29"].map((d) => isBankingDay("EG", d)),
    ).toEqual([true, false, true, true]);
  });

  test("a holiday that starts at noon does not close the day (CN Youth Day, 2026-05-04 12:00)", () => {
    expect(isBankingDay("CN", "2026-05-04")).toBe(true);
  });

  test("Bangladesh and Egypt rest on Friday and Saturday; Sunday is a banking day", () => {
    // 2026-03-06 is a Friday, 2026-03-07 a Saturday, 2026-03-08 a Sunday.
    for (const calendar of ["BD", "EG"]) {
      expect([isBankingDay(calendar, "2026-03-06"), isBankingDay(calendar, "2026-03-07")]).toEqual([
        false,
        false,
      ]);
      expect(isBankingDay(calendar, "2026-03-08")).toBe(true);
    }
    expect(isBankingDay("KE", "2026-03-08")).toBe(false);
    expect(isBankingDay("KE", "2026-03-06")).toBe(true);
  });

  test("the calendar reaches past 2028: years come from the library's rules, not a table", () => {
    expect(isBusinessDay("2031-07-04")).toBe(false);
    expect(isBusinessDay("2032-07-05")).toBe(false); // 2032-07-04 is a Sunday
    expect(isBusinessDay("2037-07-03")).toBe(true); // 2037-07-04 is a Saturday
  });

  test("an unknown calendar is a programming error", () => {
    expect(() => isBankingDay("XX", "2026-01-05")).toThrow(RangeError);
    expect(() => isBankingDay("usa", "2026-01-05")).toThrow(RangeError);
    expect(() => isBankingDay("GB-XYZ", "2026-01-05")).toThrow(RangeError);
  });
});

describe("counting banking days", () => {
  test("nextBankingDay skips weekends and holidays", () => {
    expect(nextBankingDay("US", "2027-01-15")).toBe("2027-01-19"); // Friday -> Tuesday after MLK Day
    expect(nextBankingDay("BD", "2026-03-05")).toBe("2026-03-08"); // Thursday -> Sunday
  });

  test("bankingDayFrom: 0 is the day itself or the next banking day; n is the n-th banking day after", () => {
    expect(bankingDayFrom("US", "2027-01-14", 0)).toBe("2027-01-14");
    expect(bankingDayFrom("US", "2027-01-16", 0)).toBe("2027-01-19");
    expect(bankingDayFrom("US", "2027-01-16", 1)).toBe("2027-01-19");
    expect(bankingDayFrom("US", "2027-01-16", 2)).toBe("2027-01-20");
    expect(bankingDayFrom("US", "2027-01-14", 2)).toBe("2027-01-19");
  });
});
