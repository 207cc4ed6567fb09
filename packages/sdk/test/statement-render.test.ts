import { describe, expect, test } from "vitest";
import {
  DEFAULT_QUESTIONS_CONTACT,
  escapeHtml,
  formatMoney,
  renderStatement,
  type Statement,
  statementPeriod,
} from "../src/index.js";
import { exactSum } from "../src/statements/money.js";
import { USD } from "./statement-fixture.js";

const USDC = { code: "USDC", name: "USD Coin", symbol: "USDC", decimals: 6 };
const JPY = { code: "JPY", name: "Yen", symbol: "¥", decimals: 0 };

describe("money from integer minor units, with the currency's decimals", () => {
  test.each([
    [0, USD, "$0.00"],
    [5, USD, "$0.05"],
    [-5, USD, "-$0.05"],
    [100, USD, "$1.00"],
    [123_456_789, USD, "$1,234,567.89"],
    [-9_000_000_000_000_000, USD, "-$90,000,000,000,000.00"],
    [1_500_000, USDC, "1.500000 USDC"],
    [1_234, JPY, "¥1,234"],
  ])("%d %o → %s", (amount, currency, text) => {
    expect(formatMoney(amount, currency)).toBe(text);
  });

  test("a fraction is refused, never rounded", () => {
    expect(() => formatMoney(10.5, USD)).toThrow(RangeError);
  });

  test("sums are exact beyond 2^53 or refused", () => {
    expect(exactSum([9_000_000_000_000_000, -8_999_999_999_999_999])).toBe(1);
    expect(() => exactSum([9_000_000_000_000_000, 9_000_000_000_000_000])).toThrow(RangeError);
  });
});

const statement: Statement = {
  account: { id: "InternalAccount:abc", maskedNumber: "****5678", type: "INTERNAL_FIAT" },
  currency: USD,
  period: statementPeriod("2026-11"),
  openingBalance: 100_000,
  closingBalance: 100_000 + 25_000 - 1_050 - 450,
  lines: [
    {
      date: "2026-11-02",
      effectiveAt: "2026-11-02T15:00:00.000Z",
      description: "Payroll",
      type: "INCOMING",
      counterparty: "Smith & <Sons>",
      rail: "ACH",
      amount: 25_000,
      fee: 0,
      transactionId: "Transaction:1",
      balanceChangeId: "BalanceChange:1",
    },
    {
      date: "2026-11-03",
      effectiveAt: "2026-11-03T15:00:00.000Z",
      description: "Rent",
      type: "OUTGOING",
      counterparty: "account ending 4321",
      amount: -1_050,
      fee: -50,
      transactionId: "Transaction:2",
      balanceChangeId: "BalanceChange:2",
    },
    {
      date: "2026-11-30",
      effectiveAt: "2026-11-30T15:00:00.000Z",
      description: 'Card purchase at <script>alert("x")</script>',
      type: "CARD",
      merchant: { descriptor: "Café 'O'", city: "Austin", state: "TX" },
      amount: -450,
      fee: 0,
      transactionId: "CardTransaction:3",
      balanceChangeId: "BalanceChange:3",
    },
  ],
  totals: { credits: 25_000, debits: -1_500, fees: -50 },
  generatedAt: "2026-12-05T10:00:00.000Z",
  questionsContact: DEFAULT_QUESTIONS_CONTACT,
};

describe("renderStatement holds what Regulation E asks of a periodic statement", () => {
  test("text: account, period, balances, each transfer's date, type, party with location, amount and fees, contact", () => {
    const text = renderStatement(statement, "text");
    for (const expected of [
      "USD account ****5678",
      "November 1, 2026 to November 30, 2026",
      "Opening balance on November 1, 2026: $1,000.00",
      "Closing balance on November 30, 2026: $1,235.00",
      "Total credits: $250.00",
      "Total debits: -$15.00",
      "Total fees: -$0.50",
      "Café 'O' (Austin, TX)",
      "Smith & <Sons>",
      DEFAULT_QUESTIONS_CONTACT,
    ]) {
      expect(text).toContain(expected);
    }
    const rent = text.split("\n").find((line) => line.startsWith("2026-11-03"));
    expect(rent).toMatch(/OUTGOING\s+Rent\s+account ending 4321\s+-\$10\.50\s+-\$0\.50$/);
    expect(text).not.toContain("InternalAccount:abc");
  });

  test("html: every string is escaped", () => {
    const html = renderStatement(statement, "html", {
      issuer: "Acme <Pay>",
      questionsContact: "help@acme.example & 1-800",
    });
    expect(html).not.toContain("<script>");
    expect(html).toContain("Card purchase at &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("Smith &amp; &lt;Sons&gt;");
    expect(html).toContain("Café &#39;O&#39; (Austin, TX)");
    expect(html).toContain("<title>Acme &lt;Pay&gt;: account statement</title>");
    expect(html).toContain("help@acme.example &amp; 1-800");
    expect(html).toContain("-$10.50");
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
  });

  test("text and html: control and bidirectional-override characters in names and descriptors are stripped", () => {
    const hostile: Statement = {
      ...statement,
      lines: [
        {
          ...(statement.lines[0] as Statement["lines"][number]),
          description: "Pay\u001b[2J\u001b[31mroll\r\nFAKE LINE\u0007",
          counterparty: "Evil \u202egro.knab\u202c Ltd\u2066x\u2069\u200f",
        },
        {
          ...(statement.lines[2] as Statement["lines"][number]),
          merchant: { descriptor: "Shop\u0085\u061c\u200e\u202d", city: "Aus\u0000tin", state: "TX" },
        },
      ],
    };
    // Any control or bidirectional-control character but the line breaks the formats are made of.
    const unprintable = /(?!\n)[\p{Cc}\p{Bidi_Control}]/u;
    for (const format of ["text", "html"] as const) {
      const rendered = renderStatement(hostile, format, {
        issuer: "Acme\u202e",
        questionsContact: "help\u001b",
      });
      expect(rendered, format).not.toMatch(unprintable);
      expect(rendered, format).not.toContain("\rFAKE");
      expect(rendered, format).toContain("Pay [2J [31mroll FAKE LINE");
      expect(rendered, format).toContain("Evil gro.knab Ltd x");
      expect(rendered, format).toContain("Shop (Aus tin, TX)");
    }
    const rows = renderStatement(hostile, "text")
      .split("\n")
      .filter((line) => line.startsWith("2026-11"));
    expect(rows).toHaveLength(2);
  });

  test("json: the statement in minor units, with the configured contact", () => {
    const parsed = JSON.parse(
      renderStatement(statement, "json", { questionsContact: "support@acme.example" }),
    );
    expect(parsed).toEqual({ ...statement, questionsContact: "support@acme.example" });
  });

  test("a period with no transfers says so", () => {
    const empty = {
      ...statement,
      lines: [],
      closingBalance: 100_000,
      totals: { credits: 0, debits: 0, fees: 0 },
    };
    expect(renderStatement(empty, "text")).toContain("No transfers in this period.");
    expect(renderStatement(empty, "html")).toContain("No transfers in this period.");
  });

  test("an unknown format is a TypeError", () => {
    expect(() => renderStatement(statement, "pdf" as "text")).toThrow(TypeError);
  });
});
