import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { chicagoDay, chicagoOffsetMinutes, chicagoWallTime } from "../core/chicago.js";
import { isBankingDay } from "./calendars.js";
import { corridors } from "./corridors.js";
import { localTime, zonedInstant } from "./local-time.js";
import { INSTANT_SETTLEMENT_SECONDS, railProfiles } from "./payment-rails.js";
import { expectedSettlement, expectedSettlementFor, isBusinessDay } from "./rails.js";

const at = (iso: string) => new Date(iso);
const settle = (rail: Parameters<typeof expectedSettlementFor>[0]["rail"], currency: string, now: string) =>
  expectedSettlementFor({ rail, currency, now: at(now) }).toISOString();

/** rails.ts's ACH schedule before this change, on core/chicago.ts, to compare the new one against. */
function oldExpectedSettlement(rail: "ACH" | "ACH_SAME_DAY", now: Date): Date {
  const next = (date: string) => {
    let day = new Date(`${date}T12:00:00Z`);
    do day = new Date(day.getTime() + 86_400_000);
    while (!isBusinessDay(day.toISOString().slice(0, 10)));
    return day.toISOString().slice(0, 10);
  };
  const chicagoInstant = (date: string, hour: number) => {
    const guess = new Date(`${date}T${String(hour).padStart(2, "0")}:00:00Z`);
    const first = new Date(guess.getTime() - chicagoOffsetMinutes(guess) * 60_000);
    return new Date(guess.getTime() - chicagoOffsetMinutes(first) * 60_000);
  };
  const today = chicagoDay(now);
  const wall = chicagoWallTime(now);
  const beforeCutoff = wall.hour * 60 + wall.minute < 14 * 60 + 45;
  const sameDay = rail === "ACH_SAME_DAY" && isBusinessDay(today) && beforeCutoff;
  return chicagoInstant(sameDay ? today : next(today), 17);
}

const instants = fc
  .integer({ min: Date.parse("2026-01-01T00:00:00Z"), max: Date.parse("2028-12-31T23:59:59Z") })
  .map((ms) => new Date(ms));

describe("ACH and ACH_SAME_DAY keep their schedule (conventions §3.5, docs/decisions.md 'Settlement schedule')", () => {
  test("expectedSettlement equals the old table-based schedule at any instant of 2026-2028", () => {
    fc.assert(
      fc.property(instants, fc.constantFrom("ACH" as const, "ACH_SAME_DAY" as const), (now, rail) => {
        expect(expectedSettlement(rail, now).toISOString()).toBe(
          oldExpectedSettlement(rail, now).toISOString(),
        );
      }),
      { numRuns: 2_000 },
    );
  });

  test.each([
    [
      "ACH on a Friday -> Tuesday after MLK Day",
      "ACH",
      "2027-01-15T16:00:00.000Z",
      "2027-01-19T23:00:00.000Z",
    ],
    ["ACH on a Saturday -> Monday", "ACH", "2027-01-09T16:00:00.000Z", "2027-01-11T23:00:00.000Z"],
    [
      "ACH on Thursday 2026-07-02 -> Friday 07-03 (Saturday's holiday is not moved)",
      "ACH",
      "2026-07-02T15:00:00.000Z",
      "2026-07-03T22:00:00.000Z",
    ],
    [
      "ACH_SAME_DAY before 14:45 -> that day",
      "ACH_SAME_DAY",
      "2027-01-15T16:00:00.000Z",
      "2027-01-15T23:00:00.000Z",
    ],
    [
      "ACH_SAME_DAY at 14:45 -> next business day",
      "ACH_SAME_DAY",
      "2027-01-14T20:45:00.000Z",
      "2027-01-15T23:00:00.000Z",
    ],
  ] as const)("%s", (_name, rail, now, expected) => {
    expect(expectedSettlement(rail, at(now)).toISOString()).toBe(expected);
    expect(settle(rail, "USD", now)).toBe(expected);
  });
});

describe(`instant rails settle ${INSTANT_SETTLEMENT_SECONDS} seconds later, any day`, () => {
  test.each([
    ["SPEI", "MXN", "2026-09-16T18:00:00.000Z"], // Mexico's Independence Day
    ["PIX", "BRL", "2026-02-16T03:00:00.000Z"], // Carnival Monday
    ["FASTER_PAYMENTS", "GBP", "2026-12-25T12:00:00.000Z"],
    ["SEPA_INSTANT", "EUR", "2026-04-03T08:00:00.000Z"], // Good Friday, TARGET2 closed
    ["UPI", "INR", "2026-01-26T06:00:00.000Z"],
    ["RTGS", "INR", "2026-01-24T06:00:00.000Z"], // a Saturday: India's RTGS runs 24x7
    ["FAST", "SGD", "2026-08-09T06:00:00.000Z"],
    ["PAYNOW", "SGD", "2026-08-10T06:00:00.000Z"],
    ["INSTAPAY", "PHP", "2026-12-30T06:00:00.000Z"],
    ["RTP", "USD", "2026-11-26T18:00:00.000Z"], // Thanksgiving
    ["FEDNOW", "USD", "2026-11-28T18:00:00.000Z"], // a Saturday
    ["MOBILE_MONEY", "KES", "2026-03-20T09:00:00.000Z"],
    ["BRE_B", "COP", "2026-01-12T15:00:00.000Z"],
    ["UNIONPAY", "CNY", "2026-10-01T02:00:00.000Z"],
  ] as const)("%s (%s) at %s", (rail, currency, now) => {
    expect(settle(rail, currency, now)).toBe(
      new Date(Date.parse(now) + INSTANT_SETTLEMENT_SECONDS * 1000).toISOString(),
    );
  });
});

describe("batch rails settle the next banking day of the receiving calendar, 17:00 local", () => {
  test.each([
    [
      "SEPA on the Thursday before Easter -> Tuesday (TARGET2 closes Good Friday and Easter Monday)",
      "SEPA",
      "EUR",
      "2026-04-02T10:00:00.000Z",
      "2026-04-07T15:00:00.000Z", // 17:00 CEST
    ],
    [
      "SEPA on a Friday evening -> Monday",
      "SEPA",
      "EUR",
      "2026-01-16T20:00:00.000Z",
      "2026-01-19T16:00:00.000Z",
    ],
    [
      "NEFT on Friday 2026-01-23 -> Tuesday (weekend, then Republic Day)",
      "NEFT",
      "INR",
      "2026-01-23T06:00:00.000Z",
      "2026-01-27T11:30:00.000Z", // 17:00 IST
    ],
    [
      "PESONET on Tuesday 2026-12-29 -> Thursday (Rizal Day 12-30)",
      "PESONET",
      "PHP",
      "2026-12-29T02:00:00.000Z",
      "2026-12-31T09:00:00.000Z", // 17:00 PHT
    ],
    [
      "ACH_COLOMBIA on Friday 2026-01-09 -> Tuesday (weekend, then Epiphany on Monday)",
      "ACH_COLOMBIA",
      "COP",
      "2026-01-09T15:00:00.000Z",
      "2026-01-13T22:00:00.000Z", // 17:00 Bogotá
    ],
    [
      "BANK_TRANSFER to Bangladesh on a Thursday -> Sunday (Friday–Saturday weekend)",
      "BANK_TRANSFER",
      "BDT",
      "2026-03-05T06:00:00.000Z",
      "2026-03-08T11:00:00.000Z", // 17:00 Dhaka
    ],
    [
      "BANK_TRANSFER in USD to El Salvador (SLV_ACCOUNT) on 09-14 -> 09-16 (Independence Day on the SV calendar)",
      "BANK_TRANSFER",
      "USD",
      "2026-09-14T15:00:00.000Z",
      "2026-09-16T23:00:00.000Z", // 17:00 El Salvador (UTC-6)
    ],
    [
      "BANK_TRANSFER to Singapore on Friday 08-07 -> Tuesday (National Day on Sunday 08-09, its substitute Monday)",
      "BANK_TRANSFER",
      "SGD",
      "2026-08-07T02:00:00.000Z",
      "2026-08-11T09:00:00.000Z", // 08-09 Sunday, 08-10 substitute day; 17:00 SGT
    ],
  ] as const)("%s", (_name, rail, currency, now, expected) => {
    expect(settle(rail, currency, now)).toBe(expected);
  });
});

describe("wire rails: WIRE the same banking day before its cut-off, SWIFT the second banking day", () => {
  test.each([
    [
      "WIRE before the 17:00 Chicago cut-off -> that day 17:00",
      "WIRE",
      "USD",
      "2026-03-10T21:59:00.000Z",
      "2026-03-10T22:00:00.000Z",
    ],
    [
      "WIRE at the cut-off -> next business day",
      "WIRE",
      "USD",
      "2026-03-10T22:00:00.000Z",
      "2026-03-11T22:00:00.000Z",
    ],
    [
      "WIRE on Columbus Day -> next business day",
      "WIRE",
      "USD",
      "2026-10-12T15:00:00.000Z",
      "2026-10-13T22:00:00.000Z",
    ],
    [
      "SWIFT in EUR on a Tuesday morning -> Thursday 17:00 Berlin",
      "SWIFT",
      "EUR",
      "2026-03-10T09:00:00.000Z",
      "2026-03-12T16:00:00.000Z",
    ],
    [
      "SWIFT in EUR after the 15:00 cut-off -> Friday",
      "SWIFT",
      "EUR",
      "2026-03-10T14:30:00.000Z",
      "2026-03-13T16:00:00.000Z",
    ],
    [
      "SWIFT in MXN on Friday 2026-11-13 -> Wednesday (Revolution Day on Monday 11-16)",
      "SWIFT",
      "MXN",
      "2026-11-13T16:00:00.000Z",
      "2026-11-18T23:00:00.000Z", // 17:00 Mexico City (UTC-6)
    ],
    [
      "SWIFT in BRL on Friday 2026-02-13 -> Thursday (Carnival Monday and Tuesday)",
      "SWIFT",
      "BRL",
      "2026-02-13T12:00:00.000Z",
      "2026-02-19T20:00:00.000Z", // 17:00 São Paulo (UTC-3)
    ],
    [
      "SWIFT in USD on a Saturday -> Tuesday",
      "SWIFT",
      "USD",
      "2026-03-14T15:00:00.000Z",
      "2026-03-17T22:00:00.000Z",
    ],
    [
      "CIPS before 17:00 Shanghai -> that day",
      "CIPS",
      "CNY",
      "2026-03-10T02:00:00.000Z",
      "2026-03-10T09:00:00.000Z",
    ],
    [
      "CIPS during China's National Day holidays (10-01 to 10-03) -> Monday 10-05",
      "CIPS",
      "CNY",
      "2026-10-02T02:00:00.000Z",
      "2026-10-05T09:00:00.000Z",
    ],
  ] as const)("%s", (_name, rail, currency, now, expected) => {
    expect(settle(rail, currency, now)).toBe(expected);
  });
});

describe("every rail of every corridor", () => {
  const routes = corridors.flatMap((corridor) =>
    corridor.rails.map((route) => ({ currency: corridor.currency, route })),
  );

  test("settles after execution; batch and wire rails at 17:00 local on a banking day of the route's calendar", () => {
    fc.assert(
      fc.property(fc.constantFrom(...routes), instants, ({ currency, route }, now) => {
        const settled = expectedSettlementFor({ rail: route.rail, currency, now });
        expect(settled.getTime()).toBeGreaterThan(now.getTime());
        if (railProfiles[route.rail].kind === "instant") return;
        const local = localTime(route.market.timeZone, settled);
        expect([local.hour, local.minute]).toEqual([17, 0]);
        expect(isBankingDay(route.market.calendar, local.date)).toBe(true);
        // Within two weeks: SWIFT's three banking days across a holiday week and two weekends at most.
        expect(settled.getTime() - now.getTime()).toBeLessThan(14 * 86_400_000);
      }),
      { numRuns: 3_000 },
    );
  });

  test("a rail the corridor does not serve is a programming error", () => {
    expect(() => settle("ACH", "EUR", "2026-03-10T09:00:00.000Z")).toThrow(RangeError);
    expect(() => settle("SEPA", "JPY", "2026-03-10T09:00:00.000Z")).toThrow(RangeError);
  });
});

describe("local time in any zone", () => {
  test("zonedInstant agrees with core/chicago.ts across both DST changes", () => {
    for (const date of ["2026-03-07", "2026-03-08", "2026-03-09", "2026-10-31", "2026-11-01", "2026-11-02"]) {
      const instant = zonedInstant("America/Chicago", date, 17);
      expect(chicagoDay(instant)).toBe(date);
      expect(chicagoWallTime(instant).hour).toBe(17);
    }
  });

  test("zones with half-hour offsets and southern summer time", () => {
    expect(zonedInstant("Asia/Kolkata", "2026-01-27", 17).toISOString()).toBe("2026-01-27T11:30:00.000Z");
    expect(zonedInstant("Europe/Berlin", "2026-03-30", 17).toISOString()).toBe("2026-03-30T15:00:00.000Z");
    expect(localTime("Asia/Kolkata", at("2026-01-26T18:29:00Z"))).toEqual({
      date: "2026-01-26",
      hour: 23,
      minute: 59,
    });
  });
});
