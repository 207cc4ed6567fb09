import { useState } from "preact/hooks";
import { buildStatement } from "../../../sdk/src/statements/build.js";
import { formatMoney } from "../../../sdk/src/statements/money.js";
import { chicagoDate } from "../../../sdk/src/statements/period.js";
import { renderStatement } from "../../../sdk/src/statements/render.js";
import type { Statement } from "../../../sdk/src/statements/statement.js";
import type { AnyTransaction, BalanceChangeWindow, InternalAccount } from "../../../sdk/src/types/index.js";
import type { Api, Page } from "../api.js";
import { seg } from "../api.js";
import { describeError } from "../format.js";
import { useLoad } from "../hooks.js";

/** The Chicago month before the platform clock's: the latest one that can have closed. */
function previousMonth(now: string): string {
  const [year, month] = chicagoDate(now).split("-").map(Number) as [number, number];
  const y = month === 1 ? year - 1 : year;
  const m = month === 1 ? 12 : month - 1;
  return `${y}-${String(m).padStart(2, "0")}`;
}

function download(bytes: BlobPart, type: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = filename;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** pdf-lib is most of the code: it is loaded only when a PDF is asked for, keeping the first load small. */
async function downloadPdf(statement: Statement, filename: string): Promise<void> {
  const { statementPdf } = await import("../pdf.js");
  download(new Uint8Array(await statementPdf(statement)), "application/pdf", filename);
}

/** Builds a statement with the SDK's builder (balance-changes window, checks, one read per transaction). */
function build(api: Api, accountId: string, month: string): Promise<Statement> {
  return buildStatement(
    {
      getAccount: (id) => api.get<InternalAccount>(`/internal-accounts/${seg(id)}`),
      balanceChanges: (id, params) =>
        api.get(`/internal-accounts/${seg(id)}/balance-changes`, { ...params }) as Promise<
          BalanceChangeWindow & { lastResponse: { requestId: string | undefined; status: number } }
        >,
      getTransaction: (id) => api.get<AnyTransaction>(`/transactions/${seg(id)}`),
      maxRetries: 0,
    },
    // The page answers at once: a month whose card settlement has not closed is reported, not waited for.
    { accountId, month, maxWaitMs: 0 },
  );
}

function StatementDocument({ statement }: { statement: Statement }) {
  const m = (amount: number) => formatMoney(amount, statement.currency);
  const lastDay = new Date(Date.parse(statement.period.end) - 1).toISOString();
  return (
    <article class="statement" data-testid="statement">
      <header>
        <h3>Account statement</h3>
        <p>
          {statement.currency.code} account <span data-volatile>{statement.account.maskedNumber}</span>
          <br />
          Period: {statement.period.start.slice(0, 10)} to {chicagoDate(lastDay)} (US Central time)
        </p>
      </header>
      <p>Opening balance: {m(statement.openingBalance)}</p>
      <table>
        <thead>
          <tr>
            <th>Date</th>
            <th>Type</th>
            <th>Description</th>
            <th>Counterparty / merchant</th>
            <th>Rail</th>
            <th class="num">Amount</th>
            <th class="num">Fee included</th>
          </tr>
        </thead>
        <tbody>
          {statement.lines.map((line) => (
            <tr key={line.balanceChangeId}>
              <td>{line.date}</td>
              <td>{line.type}</td>
              <td>{line.description}</td>
              <td>{line.merchant?.descriptor ?? line.counterparty ?? ""}</td>
              <td>{line.rail ?? ""}</td>
              <td class="num">{m(line.amount)}</td>
              <td class="num">{m(line.fee)}</td>
            </tr>
          ))}
          {statement.lines.length === 0 ? (
            <tr>
              <td colSpan={7}>No transfers in this period.</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      <p>
        Total credits {m(statement.totals.credits)} · Total debits {m(statement.totals.debits)} · Total fees{" "}
        {m(statement.totals.fees)}
      </p>
      <p>
        <strong data-testid="closing-balance">Closing balance: {m(statement.closingBalance)}</strong>
      </p>
      <footer>
        <small>{statement.questionsContact}</small>
        <br />
        <small data-volatile>Generated {statement.generatedAt}</small>
      </footer>
    </article>
  );
}

/** Monthly statements: built in the page, shown as a document, downloadable as PDF and HTML. */
export function Statements({ api, now }: { api: Api; now: string }) {
  const accounts = useLoad(
    () =>
      api.get<Page<InternalAccount>>("/customers/internal-accounts", { type: "INTERNAL_FIAT", limit: 100 }),
    [now],
  );
  const [statement, setStatement] = useState<Statement | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setStatement(undefined);
    try {
      setStatement(await build(api, String(form.get("accountId")), String(form.get("month"))));
      setError(undefined);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  const name = (s: Statement) => `statement-${s.account.maskedNumber.replace(/\*/g, "")}-${s.period.month}`;

  return (
    <>
      <form onSubmit={submit} class="inline">
        <label>
          Account
          <select name="accountId" required>
            {(accounts.data?.data ?? []).map((a) => (
              <option key={a.id} value={a.id} data-volatile>
                {a.totalBalance.currency.code} {a.id}
              </option>
            ))}
          </select>
        </label>
        <label>
          Month (US Central)
          <input name="month" pattern="\d{4}-\d{2}" required value={previousMonth(now)} />
        </label>
        <button type="submit" disabled={busy}>
          Build statement
        </button>
      </form>
      {accounts.error ? <p class="error">{accounts.error}</p> : null}
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      {statement ? (
        <>
          <p>
            <button type="button" onClick={() => void downloadPdf(statement, `${name(statement)}.pdf`)}>
              Download PDF
            </button>{" "}
            <button
              type="button"
              class="secondary"
              onClick={() =>
                download(renderStatement(statement, "html"), "text/html", `${name(statement)}.html`)
              }
            >
              Download HTML
            </button>
          </p>
          <StatementDocument statement={statement} />
        </>
      ) : null}
    </>
  );
}
