import { describe, expect, test } from "vitest";
import { currencyCodes, isFiat, isKnownCurrency } from "../core/money.js";
import { accountRails, usableRails } from "./account-rails.js";
import { isBankingDay } from "./calendars.js";
import {
  corridorFor,
  corridors,
  currenciesFor,
  defaultRail,
  railsFor,
  routeOf,
  SWIFT_ACCOUNT,
  servesRail,
} from "./corridors.js";
import { paymentRails } from "./payment-rails.js";

/**
 * The `paymentRails` item enum of each fiat account type's read schema in the hosted API
 * (../shared/reference/hosted-api/index.md "External account types").
 */
const hostedAccountRails: Record<string, readonly string[]> = {
  AED_ACCOUNT: ["BANK_TRANSFER"],
  BDT_ACCOUNT: ["BANK_TRANSFER", "MOBILE_MONEY"],
  BRL_ACCOUNT: ["PIX"],
  BWP_ACCOUNT: ["MOBILE_MONEY"],
  CAD_ACCOUNT: ["BANK_TRANSFER"],
  COP_ACCOUNT: ["BANK_TRANSFER", "MOBILE_MONEY"],
  DKK_ACCOUNT: ["SEPA", "SEPA_INSTANT"],
  EGP_ACCOUNT: ["BANK_TRANSFER", "MOBILE_MONEY"],
  EUR_ACCOUNT: ["SEPA", "SEPA_INSTANT"],
  GBP_ACCOUNT: ["FASTER_PAYMENTS"],
  GHS_ACCOUNT: ["BANK_TRANSFER", "MOBILE_MONEY"],
  GTQ_ACCOUNT: ["BANK_TRANSFER"],
  HKD_ACCOUNT: ["BANK_TRANSFER"],
  HTG_ACCOUNT: ["MOBILE_MONEY"],
  IDR_ACCOUNT: ["BANK_TRANSFER"],
  INR_ACCOUNT: ["UPI", "NEFT", "RTGS"],
  JMD_ACCOUNT: ["BANK_TRANSFER"],
  KES_ACCOUNT: ["MOBILE_MONEY"],
  MWK_ACCOUNT: ["MOBILE_MONEY"],
  MXN_ACCOUNT: ["SPEI"],
  MYR_ACCOUNT: ["BANK_TRANSFER"],
  NGN_ACCOUNT: ["BANK_TRANSFER"],
  PHP_ACCOUNT: ["BANK_TRANSFER"],
  PKR_ACCOUNT: ["BANK_TRANSFER", "MOBILE_MONEY"],
  RWF_ACCOUNT: ["MOBILE_MONEY"],
  SGD_ACCOUNT: ["PAYNOW", "FAST", "BANK_TRANSFER"],
  SLV_ACCOUNT: ["BANK_TRANSFER", "MOBILE_MONEY"],
  THB_ACCOUNT: ["BANK_TRANSFER"],
  TZS_ACCOUNT: ["MOBILE_MONEY"],
  UGX_ACCOUNT: ["MOBILE_MONEY"],
  // The spec adds ACH_SAME_DAY beside ACH (interface "Other fields named in passing").
  USD_ACCOUNT: ["ACH", "ACH_SAME_DAY", "WIRE", "RTP", "FEDNOW"],
  VND_ACCOUNT: ["BANK_TRANSFER"],
  XAF_ACCOUNT: ["MOBILE_MONEY"],
  XOF_ACCOUNT: ["MOBILE_MONEY"],
  ZAR_ACCOUNT: ["BANK_TRANSFER"],
  ZMW_ACCOUNT: ["MOBILE_MONEY"],
  CNY_ACCOUNT: ["BANK_TRANSFER", "MOBILE_MONEY"],
  SWIFT_ACCOUNT: ["SWIFT"],
};

const everyAccount = (accountType: string) => ({
  accountType,
  accountNumber: "0123456789",
  iban: "DE89370400440532013000",
  ifsc: "HDFC0001234",
  vpa: "user@upi",
  phoneNumber: "+254712345678",
});

describe("the corridor table covers the hosted API", () => {
  test("every fiat ExternalAccountType receives exactly one corridor's currency; SWIFT_ACCOUNT every one", () => {
    for (const accountType of Object.keys(hostedAccountRails)) {
      const currencies = currenciesFor(accountType);
      if (accountType === SWIFT_ACCOUNT) expect(currencies).toEqual(corridors.map((c) => c.currency));
      else expect(currencies, accountType).toHaveLength(1);
    }
    const tableTypes = new Set(corridors.flatMap((corridor) => corridor.accountTypes));
    expect([...tableTypes].sort()).toEqual(Object.keys(hostedAccountRails).sort());
  });

  test("an account type of a currency receives that currency (MXN_ACCOUNT -> MXN); SLV_ACCOUNT receives USD", () => {
    for (const accountType of Object.keys(hostedAccountRails)) {
      if (accountType === SWIFT_ACCOUNT || accountType === "SLV_ACCOUNT") continue;
      expect(currenciesFor(accountType)).toEqual([accountType.slice(0, 3)]);
    }
    expect(currenciesFor("SLV_ACCOUNT")).toEqual(["USD"]);
  });

  test("an external account shows only rails its hosted read schema lists, and all of them when it has every field", () => {
    for (const [accountType, hosted] of Object.entries(hostedAccountRails)) {
      for (const currency of currenciesFor(accountType)) {
        expect(
          [...accountRails(currency, everyAccount(accountType))].sort(),
          `${currency} ${accountType}`,
        ).toEqual([...hosted].sort());
      }
    }
  });

  test("every PaymentRail is served by some corridor", () => {
    const served = new Set(corridors.flatMap((corridor) => corridor.rails.map((route) => route.rail)));
    expect(paymentRails.filter((rail) => !served.has(rail))).toEqual([]);
  });

  test("every currency of the corridor table is a known currency of core/money.ts", () => {
    expect(corridors.map((c) => c.currency).filter((code) => !isKnownCurrency(code))).toEqual([]);
  });

  test("every fiat currency of core/money.ts has a corridor, and no crypto currency has one", () => {
    expect(currencyCodes.filter((code) => isFiat(code) !== (corridorFor(code) !== undefined))).toEqual([]);
  });
});

describe("each corridor is well-formed", () => {
  test.each(corridors.map((corridor) => [corridor.currency, corridor] as const))(
    "%s: its default rail is one it serves, for itself and for each of its account types",
    (currency, corridor) => {
      const rail = defaultRail(currency);
      expect(rail).toBeDefined();
      expect(servesRail(currency, rail as string)).toBe(true);
      expect(routeOf(currency, rail as string)?.automatic).toBe(true);
      for (const accountType of corridor.accountTypes) {
        const own = defaultRail(currency, accountType);
        expect(own, accountType).toBeDefined();
        expect(servesRail(currency, own as string, accountType)).toBe(true);
      }
    },
  );

  test.each(corridors.map((corridor) => [corridor.currency, corridor] as const))(
    "%s: the time zones are IANA zones and the calendars open on ordinary weekdays",
    (_currency, corridor) => {
      for (const route of corridor.rails) {
        expect(() => new Intl.DateTimeFormat("en-US", { timeZone: route.market.timeZone })).not.toThrow();
        // 2026-03-10 is a Tuesday that no calendar of the table closes.
        expect(isBankingDay(route.market.calendar, "2026-03-10"), route.market.calendar).toBe(true);
        for (const country of route.market.countries) expect(country).toMatch(/^[A-Z]{2}$/);
      }
      expect(corridor.maximum).toBeGreaterThan(0);
    },
  );

  test("a rail of a corridor settles in one market (the settlement input needs no account type)", () => {
    for (const corridor of corridors) {
      const rails = corridor.rails.map((route) => route.rail);
      expect(new Set(rails).size).toBe(rails.length);
    }
  });
});

describe("rails in order of preference", () => {
  test.each([
    [
      "USD",
      ["ACH", "ACH_SAME_DAY", "RTP", "FEDNOW", "WIRE", "BANK_TRANSFER", "MOBILE_MONEY", "SWIFT"],
      "ACH",
    ],
    ["EUR", ["SEPA_INSTANT", "SEPA", "SWIFT"], "SEPA_INSTANT"],
    ["GBP", ["FASTER_PAYMENTS", "SWIFT"], "FASTER_PAYMENTS"],
    ["MXN", ["SPEI", "SWIFT"], "SPEI"],
    ["BRL", ["PIX", "SWIFT"], "PIX"],
    ["INR", ["UPI", "NEFT", "RTGS", "SWIFT"], "UPI"],
    ["PHP", ["INSTAPAY", "PESONET", "BANK_TRANSFER", "SWIFT"], "INSTAPAY"],
    ["SGD", ["FAST", "PAYNOW", "BANK_TRANSFER", "SWIFT"], "FAST"],
    ["COP", ["BRE_B", "ACH_COLOMBIA", "BANK_TRANSFER", "MOBILE_MONEY", "SWIFT"], "BRE_B"],
    ["KES", ["MOBILE_MONEY", "SWIFT"], "MOBILE_MONEY"],
    ["CNY", ["BANK_TRANSFER", "MOBILE_MONEY", "CIPS", "UNIONPAY", "SWIFT"], "BANK_TRANSFER"],
  ])("%s: %j, default %s", (currency, rails, expected) => {
    expect(railsFor(currency)).toEqual(rails);
    expect(defaultRail(currency)).toBe(expected);
  });

  test("USD stays ACH; ACH_SAME_DAY is served but never automatic", () => {
    expect(defaultRail("USD", "USD_ACCOUNT")).toBe("ACH");
    expect(servesRail("USD", "ACH_SAME_DAY", "USD_ACCOUNT")).toBe(true);
    expect(routeOf("USD", "ACH_SAME_DAY")?.automatic).toBe(false);
  });

  test("per account type: SWIFT_ACCOUNT -> SWIFT, SLV_ACCOUNT -> BANK_TRANSFER in El Salvador", () => {
    expect(defaultRail("MXN", SWIFT_ACCOUNT)).toBe("SWIFT");
    expect(servesRail("MXN", "SPEI", SWIFT_ACCOUNT)).toBe(false);
    expect(defaultRail("USD", "SLV_ACCOUNT")).toBe("BANK_TRANSFER");
    expect(servesRail("USD", "ACH", "SLV_ACCOUNT")).toBe(false);
    expect(routeOf("USD", "BANK_TRANSFER")?.market.calendar).toBe("SV");
  });

  test("an unknown currency has no corridor and no rails", () => {
    expect(corridorFor("JPY")).toBeUndefined();
    expect(railsFor("JPY")).toEqual([]);
    expect(defaultRail("JPY")).toBeUndefined();
    expect(servesRail("JPY", "SWIFT")).toBe(false);
  });

  test("EUR settles on TARGET2 in Europe/Berlin across the euro area", () => {
    const eur = corridorFor("EUR");
    expect(eur?.market.calendar).toBe("TARGET2");
    expect(eur?.market.countries).toContain("DE");
    expect(eur?.market.countries).toHaveLength(21);
  });
});

describe("rails that can pay an account, from its fields", () => {
  test.each([
    [
      "GHS with a phone number only -> MOBILE_MONEY",
      "GHS",
      { accountType: "GHS_ACCOUNT", bankName: "MTN", phoneNumber: "+233201234567" },
      ["MOBILE_MONEY"],
    ],
    [
      "GHS with an account number only -> BANK_TRANSFER",
      "GHS",
      { accountType: "GHS_ACCOUNT", bankName: "GCB", accountNumber: "1234567890" },
      ["BANK_TRANSFER"],
    ],
    ["INR with a VPA only -> UPI", "INR", { accountType: "INR_ACCOUNT", vpa: "user@upi" }, ["UPI"]],
    [
      "INR with account and IFSC -> NEFT, RTGS",
      "INR",
      { accountType: "INR_ACCOUNT", accountNumber: "000111222333", ifsc: "HDFC0001234" },
      ["NEFT", "RTGS"],
    ],
    [
      "EGP with an IBAN -> BANK_TRANSFER",
      "EGP",
      { accountType: "EGP_ACCOUNT", bankName: "NBE", iban: "EG380019000500000000263180002" },
      ["BANK_TRANSFER"],
    ],
    [
      "SWIFT_ACCOUNT with neither account number nor IBAN -> none",
      "EUR",
      { accountType: SWIFT_ACCOUNT, swiftCode: "DEUTDEFF" },
      [],
    ],
  ] as const)("%s", (_name, currency, account, expected) => {
    expect(usableRails(currency, account)).toEqual(expected);
  });

  test("a PHP account shows BANK_TRANSFER only, though INSTAPAY and PESONET pay it", () => {
    const account = { accountType: "PHP_ACCOUNT", bankName: "BDO", accountNumber: "001234567890" };
    expect(usableRails("PHP", account)).toEqual(["INSTAPAY", "PESONET", "BANK_TRANSFER"]);
    expect(accountRails("PHP", account)).toEqual(["BANK_TRANSFER"]);
  });
});
