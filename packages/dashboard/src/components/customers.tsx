import { useState } from "preact/hooks";
import type { Customer, InternalAccount } from "../../../sdk/src/types/index.js";
import type { Api, Page } from "../api.js";
import { balanceSeries } from "../balances.js";
import { money, when } from "../format.js";
import { useLoad } from "../hooks.js";
import { BalanceChart } from "./balance-chart.js";

function name(customer: Customer): string {
  const business = (customer as { businessInfo?: { legalName?: string } }).businessInfo?.legalName;
  return customer.fullName ?? business ?? customer.platformCustomerId ?? "(no name)";
}

function AccountBalances({ api, account, now }: { api: Api; account: InternalAccount; now: string }) {
  const series = useLoad(
    () => balanceSeries(api, account, now),
    [account.id, now, account.totalBalance.amount],
  );
  return (
    <div>
      <h4>
        {account.totalBalance.currency.code} {account.type} <small data-volatile>{account.id}</small>
      </h4>
      <p>
        Ledger balance <strong data-testid="ledger-balance">{money(account.totalBalance)}</strong>, available{" "}
        {money(account.balance)} · {account.status}
      </p>
      {series.error ? <p class="error">{series.error}</p> : null}
      {series.data ? (
        <>
          <BalanceChart points={series.data.points} currency={account.totalBalance.currency} />
          <p>
            <small>
              Balance changes up to {when(series.data.settledUntil)} (card settlement closed), then the
              current ledger balance.
            </small>
          </p>
        </>
      ) : null}
    </div>
  );
}

function CustomerAccounts({ api, customer, now }: { api: Api; customer: Customer; now: string }) {
  const accounts = useLoad(
    () =>
      api.get<Page<InternalAccount>>("/customers/internal-accounts", { customerId: customer.id, limit: 100 }),
    [customer.id, now],
  );
  return (
    <section aria-label="Accounts">
      <h3>{name(customer)}</h3>
      <p>
        {customer.customerType} · KYC {customer.kycStatus} · <span data-volatile>{customer.umaAddress}</span>{" "}
        · <small data-volatile>{customer.id}</small>
      </p>
      {accounts.error ? <p class="error">{accounts.error}</p> : null}
      {accounts.data?.data.length === 0 ? <p>No accounts.</p> : null}
      {accounts.data?.data.map((account) => (
        <AccountBalances key={account.id} api={api} account={account} now={now} />
      ))}
    </section>
  );
}

/** Customers (`GET /customers`), and the selected one's accounts with their balance over time. */
export function Customers({ api, now }: { api: Api; now: string }) {
  const customers = useLoad(() => api.get<Page<Customer>>("/customers", { limit: 100 }), [now]);
  const [selected, setSelected] = useState<string | undefined>();
  const list = customers.data?.data ?? [];
  const current = list.find((c) => c.id === selected) ?? list[0];
  return (
    <>
      {customers.error ? <p class="error">{customers.error}</p> : null}
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Type</th>
            <th>KYC</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {list.map((c) => (
            <tr key={c.id} aria-selected={c.id === current?.id}>
              <td>
                <button type="button" class="link" onClick={() => setSelected(c.id)}>
                  {name(c)}
                </button>
              </td>
              <td>{c.customerType}</td>
              <td>{c.kycStatus}</td>
              <td>{when(c.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!customers.loading && list.length === 0 ? <p>No customers yet.</p> : null}
      {current ? <CustomerAccounts api={api} customer={current} now={now} /> : null}
    </>
  );
}
