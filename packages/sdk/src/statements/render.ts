/**
 * Renders a statement with what Regulation E (12 CFR 1005.9(b)) asks of a periodic statement: each
 * transfer's date, amount and type, the counterparty or merchant with its location, fees, the opening and
 * closing balances, the masked account number, and where to direct questions.
 */
import { formatMoney } from "./money.js";
import { dateLabel, lastDayOf } from "./period.js";
import { printable } from "./printable.js";
import type { Statement, StatementLine } from "./statement.js";

/** The heading Regulation E's model clause uses for the error-resolution contact. */
const QUESTIONS_LABEL = "In case of errors or questions about your electronic transfers";

export type StatementFormat = "text" | "html" | "json";

export interface RenderOptions {
  /** Overrides `statement.questionsContact`: the address, phone or e-mail for questions and errors. */
  questionsContact?: string;
  /** Shown as the statement's issuer, e.g. the platform's legal name. */
  issuer?: string;
}

interface View {
  title: string;
  account: string;
  period: string;
  opening: string;
  closing: string;
  credits: string;
  debits: string;
  fees: string;
  contact: string;
  generated: string;
  rows: Row[];
}

interface Row {
  date: string;
  type: string;
  description: string;
  party: string;
  rail: string;
  amount: string;
  fee: string;
}

function party(line: StatementLine): string {
  if (line.merchant) {
    const { descriptor, city, state, country } = line.merchant;
    const place = [city, state ?? country].filter((p) => p !== undefined && p !== "").join(", ");
    return place ? `${descriptor} (${place})` : descriptor;
  }
  return line.counterparty ?? "";
}

/** Every string that comes from data (names, descriptors, the issuer, the contact) is made printable. */
function view(statement: Statement, options: RenderOptions): View {
  const money = (amount: number) => formatMoney(amount, statement.currency);
  const first = dateLabel(statement.period.start.slice(0, 10));
  const last = dateLabel(lastDayOf(statement.period));
  return {
    title: options.issuer ? `${printable(options.issuer)}: account statement` : "Account statement",
    account: `${statement.currency.code} account ${statement.account.maskedNumber}`,
    period: `${first} to ${last} (US Central time)`,
    opening: `Opening balance on ${first}: ${money(statement.openingBalance)}`,
    closing: `Closing balance on ${last}: ${money(statement.closingBalance)}`,
    credits: money(statement.totals.credits),
    debits: money(statement.totals.debits),
    fees: money(statement.totals.fees),
    contact: printable(options.questionsContact ?? statement.questionsContact),
    generated: statement.generatedAt,
    rows: statement.lines.map((line) => ({
      date: line.date,
      type: line.type,
      description: printable(line.description),
      party: printable(party(line)),
      rail: line.rail ?? "",
      amount: money(line.amount),
      fee: money(line.fee),
    })),
  };
}

const HEADERS: Row = {
  date: "Date",
  type: "Type",
  description: "Description",
  party: "Counterparty / merchant (location)",
  rail: "Rail",
  amount: "Amount",
  fee: "Fee included",
};

function renderText(v: View): string {
  const all = [HEADERS, ...v.rows];
  const width = (key: keyof Row) => Math.max(...all.map((row) => row[key].length));
  const columns: [keyof Row, "left" | "right"][] = [
    ["date", "left"],
    ["type", "left"],
    ["description", "left"],
    ["party", "left"],
    ["rail", "left"],
    ["amount", "right"],
    ["fee", "right"],
  ];
  const format = (row: Row) =>
    columns
      .map(([key, side]) => (side === "left" ? row[key].padEnd(width(key)) : row[key].padStart(width(key))))
      .join("  ")
      .trimEnd();
  const table = v.rows.length === 0 ? ["No transfers in this period."] : all.map(format);
  return [
    v.title.toUpperCase(),
    `Account: ${v.account}`,
    `Period: ${v.period}`,
    "",
    v.opening,
    "",
    ...table,
    "",
    `Total credits: ${v.credits}`,
    `Total debits: ${v.debits}`,
    `Total fees: ${v.fees}`,
    v.closing,
    "",
    `${QUESTIONS_LABEL}: ${v.contact}`,
    `Generated ${v.generated}`,
    "",
  ].join("\n");
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes a string for HTML text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

function renderHtml(v: View): string {
  const e = escapeHtml;
  const cells = (row: Row, tag: "th" | "td") =>
    (Object.keys(HEADERS) as (keyof Row)[])
      .map(
        (key) => `<${tag}${key === "amount" || key === "fee" ? ' class="num"' : ""}>${e(row[key])}</${tag}>`,
      )
      .join("");
  const body =
    v.rows.length === 0
      ? '<tr><td colspan="7">No transfers in this period.</td></tr>'
      : v.rows.map((row) => `<tr>${cells(row, "td")}</tr>`).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${e(v.title)}</title>
<style>body{font-family:sans-serif}table{border-collapse:collapse}th,td{padding:2px 8px;text-align:left}.num{text-align:right}</style>
</head>
<body>
<h1>${e(v.title)}</h1>
<p>Account: ${e(v.account)}<br>Period: ${e(v.period)}</p>
<p>${e(v.opening)}</p>
<table>
<thead><tr>${cells(HEADERS, "th")}</tr></thead>
<tbody>
${body}
</tbody>
</table>
<p>Total credits: ${e(v.credits)}<br>Total debits: ${e(v.debits)}<br>Total fees: ${e(v.fees)}</p>
<p>${e(v.closing)}</p>
<p>${e(QUESTIONS_LABEL)}: ${e(v.contact)}</p>
<p>Generated ${e(v.generated)}</p>
</body>
</html>
`;
}

/** The statement as plain text, an HTML document (every string escaped), or JSON (minor units). */
export function renderStatement(
  statement: Statement,
  format: StatementFormat,
  options: RenderOptions = {},
): string {
  if (format === "json") {
    const contact = options.questionsContact ?? statement.questionsContact;
    return `${JSON.stringify({ ...statement, questionsContact: contact }, null, 2)}\n`;
  }
  if (format === "text") return renderText(view(statement, options));
  if (format === "html") return renderHtml(view(statement, options));
  throw new TypeError(`format must be text, html or json, not ${JSON.stringify(format)}.`);
}
