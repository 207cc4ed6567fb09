import { useState } from "preact/hooks";
import type { AnyTransaction, CardTransaction, Transaction } from "../../../sdk/src/types/index.js";
import type { Api, Page } from "../api.js";
import { historiesByResource, statusOf } from "../events.js";
import { money, when } from "../format.js";
import { useLoad } from "../hooks.js";

function amountOf(t: AnyTransaction): string {
  if (t.type === "CARD") {
    const card = t as CardTransaction;
    return money(card.settledAmount ?? card.authorizedAmount);
  }
  const transfer = t as Transaction;
  const amount = transfer.type === "INCOMING" ? transfer.receivedAmount : transfer.sentAmount;
  return amount ? money(amount) : "—";
}

function describe(t: AnyTransaction): string {
  if (t.type === "CARD") {
    const card = t as CardTransaction;
    return `${card.merchant.descriptor}${card.cardDeclinedReason ? ` (declined: ${card.cardDeclinedReason})` : ""}`;
  }
  const transfer = t as Transaction;
  return transfer.description ?? transfer.paymentRail ?? transfer.failureReason ?? "";
}

/** Transactions and card transactions (`GET /transactions`), each with its state history from its events. */
export function Transactions({ api, now }: { api: Api; now: string }) {
  const [type, setType] = useState("");
  const list = useLoad(
    () => api.get<Page<AnyTransaction>>("/transactions", { limit: 100, type: type || undefined }),
    [now, type],
  );
  const histories = useLoad(() => historiesByResource(api), [now]);
  const [open, setOpen] = useState<string | undefined>();
  return (
    <>
      <label>
        Type
        <select value={type} onChange={(e) => setType((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">All</option>
          <option value="INCOMING">Incoming</option>
          <option value="OUTGOING">Outgoing</option>
          <option value="CARD">Card</option>
        </select>
      </label>
      {list.error ? <p class="error">{list.error}</p> : null}
      <table>
        <thead>
          <tr>
            <th>Created</th>
            <th>Type</th>
            <th>Status</th>
            <th>Amount</th>
            <th>Description</th>
            <th>History</th>
          </tr>
        </thead>
        <tbody>
          {(list.data?.data ?? []).map((t) => {
            const history = histories.data?.get(t.id) ?? [];
            return [
              <tr key={t.id}>
                <td>{when(t.createdAt)}</td>
                <td>
                  {t.type} {t.direction}
                </td>
                <td>{t.status}</td>
                <td class="num">{amountOf(t)}</td>
                <td>{describe(t)}</td>
                <td>
                  <button
                    type="button"
                    class="link"
                    onClick={() => setOpen(open === t.id ? undefined : t.id)}
                  >
                    {history.length} event{history.length === 1 ? "" : "s"}
                  </button>
                </td>
              </tr>,
              open === t.id ? (
                <tr key={`${t.id}-history`}>
                  <td colSpan={6}>
                    <p>
                      <small>{t.id}</small>
                    </p>
                    <ol>
                      {history.map((e) => (
                        <li key={e.id}>
                          {when(e.timestamp)} {e.type} {statusOf(e)}
                        </li>
                      ))}
                    </ol>
                    {history.length === 0 ? <p>No events in the last 100.</p> : null}
                  </td>
                </tr>
              ) : null,
            ];
          })}
        </tbody>
      </table>
      {list.data?.data.length === 0 ? <p>No transactions yet.</p> : null}
    </>
  );
}
