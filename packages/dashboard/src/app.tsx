import { useMemo, useState } from "preact/hooks";
import { Api } from "./api.js";
import { ClockBar } from "./components/clock.js";
import { Customers } from "./components/customers.js";
import { MagicValues } from "./components/magic-values.js";
import { SignIn } from "./components/sign-in.js";
import { Statements } from "./components/statements.js";
import { Transactions } from "./components/transactions.js";
import { Webhooks } from "./components/webhooks.js";
import { useLoad } from "./hooks.js";
import { type Credentials, clearCredentials, loadCredentials, saveCredentials } from "./session.js";

const TABS = ["Customers", "Transactions", "Webhooks", "Statements", "Sandbox values"] as const;
type Tab = (typeof TABS)[number];

function Dashboard({ credentials, onSignOut }: { credentials: Credentials; onSignOut: () => void }) {
  const api = useMemo(() => new Api(credentials), [credentials]);
  const [tab, setTab] = useState<Tab>("Customers");
  const clock = useLoad(() => api.get<{ now: string }>("/sandbox/clock"), []);
  const now = clock.data?.now;
  return (
    <>
      <header class="top">
        <nav>
          <ul>
            <li>
              <strong>paysvc sandbox</strong>
            </li>
          </ul>
          <ul>
            <li>
              <small data-volatile>{credentials.clientId}</small>
            </li>
            <li>
              <button type="button" class="secondary" onClick={onSignOut}>
                Sign out
              </button>
            </li>
          </ul>
        </nav>
        <ClockBar api={api} now={now} onChanged={clock.reload} />
        {clock.error ? <p class="error">{clock.error}</p> : null}
        <nav aria-label="Sections">
          <ul>
            {TABS.map((name) => (
              <li key={name}>
                <button
                  type="button"
                  role="tab"
                  aria-selected={tab === name}
                  class={tab === name ? "" : "outline"}
                  onClick={() => setTab(name)}
                >
                  {name}
                </button>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <section aria-label={tab}>
        <h2>{tab}</h2>
        {now && tab === "Customers" ? <Customers api={api} now={now} /> : null}
        {now && tab === "Transactions" ? <Transactions api={api} now={now} /> : null}
        {now && tab === "Webhooks" ? <Webhooks api={api} now={now} /> : null}
        {now && tab === "Statements" ? <Statements api={api} now={now} /> : null}
        {tab === "Sandbox values" ? <MagicValues /> : null}
      </section>
    </>
  );
}

export function App() {
  const [credentials, setCredentials] = useState<Credentials | null>(loadCredentials);
  if (!credentials) {
    return (
      <SignIn
        onSignedIn={(c) => {
          saveCredentials(c);
          setCredentials(c);
        }}
      />
    );
  }
  return (
    <Dashboard
      credentials={credentials}
      onSignOut={() => {
        clearCredentials();
        setCredentials(null);
      }}
    />
  );
}
