import { describe, expect, test } from "vitest";
import { chooseRail } from "./rail-selection.js";

const now = new Date("2026-03-10T15:00:00Z");
const usd = { accountType: "USD_ACCOUNT", accountNumber: "123456789", routingNumber: "021000021" };
const php = { accountType: "PHP_ACCOUNT", bankName: "BDO", accountNumber: "001234567890" };
const inrVpa = { accountType: "INR_ACCOUNT", vpa: "user@upi" };

describe("automatic selection (no destination.paymentRail): AUTO", () => {
  test("USD to a USD_ACCOUNT -> ACH, never ACH_SAME_DAY", () => {
    expect(chooseRail({ currency: "USD", account: usd, now })).toEqual({
      rail: "ACH",
      railSelectionMode: "AUTO",
    });
  });

  test("each corridor's default: MXN SPEI, EUR SEPA_INSTANT, BRL PIX", () => {
    const cases = [
      ["MXN", { accountType: "MXN_ACCOUNT", clabeNumber: "032180000118359719" }, "SPEI"],
      ["EUR", { accountType: "EUR_ACCOUNT", iban: "DE89370400440532013000" }, "SEPA_INSTANT"],
      ["BRL", { accountType: "BRL_ACCOUNT", pixKey: "a@b.co", pixKeyType: "EMAIL" }, "PIX"],
    ] as const;
    for (const [currency, account, rail] of cases)
      expect(chooseRail({ currency, account, now }).rail).toBe(rail);
  });

  test("the first rail the account's fields can take: a GHS wallet with a phone only -> MOBILE_MONEY", () => {
    const account = { accountType: "GHS_ACCOUNT", bankName: "MTN", phoneNumber: "+233201234567" };
    expect(chooseRail({ currency: "GHS", account, now }).rail).toBe("MOBILE_MONEY");
  });

  test("above a rail's cap the next rail is chosen: PHP 50,000.01 -> PESONET instead of INSTAPAY", () => {
    expect(chooseRail({ currency: "PHP", account: php, amount: 5_000_000, now }).rail).toBe("INSTAPAY");
    expect(chooseRail({ currency: "PHP", account: php, amount: 5_000_001, now }).rail).toBe("PESONET");
  });

  test("no rail admits the amount -> 400 AMOUNT_OUT_OF_RANGE (an INR VPA above the UPI cap)", () => {
    expect(() => chooseRail({ currency: "INR", account: inrVpa, amount: 10_000_001, now })).toThrow(
      expect.objectContaining({ code: "AMOUNT_OUT_OF_RANGE" }),
    );
  });

  test("an account no rail can pay -> 400 INVALID_INPUT on destination.accountId", () => {
    const account = {
      accountType: "SWIFT_ACCOUNT",
      swiftCode: "DEUTDEFF",
      bankName: "Deutsche Bank",
      country: "DE",
    };
    expect(() => chooseRail({ currency: "EUR", account, now })).toThrow(
      expect.objectContaining({
        code: "INVALID_INPUT",
        details: { errors: [expect.objectContaining({ field: "destination.accountId" })] },
      }),
    );
  });
});

describe("a pinned destination.paymentRail: MANUAL", () => {
  test("a rail the corridor serves to the account type is used as pinned, even the default", () => {
    expect(chooseRail({ currency: "USD", account: usd, pinned: "ACH", now })).toEqual({
      rail: "ACH",
      railSelectionMode: "MANUAL",
    });
    expect(chooseRail({ currency: "USD", account: usd, pinned: "WIRE", now }).rail).toBe("WIRE");
    expect(chooseRail({ currency: "PHP", account: php, pinned: "PESONET", now }).rail).toBe("PESONET");
  });

  test.each([
    ["SPEI to a EUR account", "EUR", { accountType: "EUR_ACCOUNT", iban: "DE89370400440532013000" }, "SPEI"],
    ["ACH to El Salvador", "USD", { accountType: "SLV_ACCOUNT", accountNumber: "123" }, "ACH"],
    [
      "SEPA to a SWIFT account in EUR",
      "EUR",
      { accountType: "SWIFT_ACCOUNT", iban: "DE89370400440532013000" },
      "SEPA",
    ],
    [
      "UPI to an INR account without a VPA",
      "INR",
      { accountType: "INR_ACCOUNT", accountNumber: "000111222333", ifsc: "HDFC0001234" },
      "UPI",
    ],
  ] as const)(
    "a rail that cannot pay the account (%s) -> 400 INVALID_INPUT on destination.paymentRail",
    (_name, currency, account, pinned) => {
      expect(() => chooseRail({ currency, account, pinned, now })).toThrow(
        expect.objectContaining({
          code: "INVALID_INPUT",
          details: { errors: [expect.objectContaining({ field: "destination.paymentRail" })] },
        }),
      );
    },
  );

  test("the INVALID_INPUT names the rails that would serve", () => {
    try {
      chooseRail({ currency: "MXN", account: { accountType: "MXN_ACCOUNT" }, pinned: "ACH", now });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        details: { errors: [{ field: "destination.paymentRail", constraint: { enum: ["SPEI"] } }] },
      });
    }
  });

  test("ACH_SAME_DAY above its cap -> 400 AMOUNT_OUT_OF_RANGE, never downgraded; the cap rises on 2027-09-17", () => {
    const pin = (amount: number, at: string) =>
      chooseRail({ currency: "USD", account: usd, pinned: "ACH_SAME_DAY", amount, now: new Date(at) });
    expect(pin(100_000_000, "2027-09-16T15:00:00Z").rail).toBe("ACH_SAME_DAY");
    expect(() => pin(100_000_001, "2027-09-16T15:00:00Z")).toThrow(
      expect.objectContaining({ code: "AMOUNT_OUT_OF_RANGE" }),
    );
    expect(pin(1_000_000_000, "2027-09-17T15:00:00Z").rail).toBe("ACH_SAME_DAY");
  });

  test("a pinned INSTAPAY above its PHP 50,000 cap -> 400 AMOUNT_OUT_OF_RANGE", () => {
    expect(() =>
      chooseRail({ currency: "PHP", account: php, pinned: "INSTAPAY", amount: 5_000_001, now }),
    ).toThrow(expect.objectContaining({ code: "AMOUNT_OUT_OF_RANGE" }));
  });
});

test("a currency without a corridor -> 400 INVALID_CURRENCY", () => {
  expect(() => chooseRail({ currency: "JPY", account: { accountType: "SWIFT_ACCOUNT" }, now })).toThrow(
    expect.objectContaining({ code: "INVALID_CURRENCY" }),
  );
});
