import { useState } from "preact/hooks";
import { Api } from "../api.js";
import { describeError } from "../format.js";
import type { Credentials } from "../session.js";

/** Sign-in with the platform's API token (clientId and secret), checked with `GET /config`. */
export function SignIn({ onSignedIn }: { onSignedIn: (credentials: Credentials) => void }) {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const credentials = {
      clientId: String(form.get("clientId") ?? "").trim(),
      clientSecret: String(form.get("clientSecret") ?? ""),
    };
    setBusy(true);
    try {
      await new Api(credentials).get("/config");
      onSignedIn(credentials);
    } catch (failure) {
      setError(describeError(failure));
      setBusy(false);
    }
  };

  return (
    <article>
      <h1>paysvc sandbox dashboard</h1>
      <p>
        Sign in with your platform's API token. It is kept in this tab's session storage only and sent only to
        this server.
      </p>
      <form onSubmit={submit}>
        <label>
          Client ID
          <input name="clientId" autoComplete="username" required />
        </label>
        <label>
          Client secret
          <input name="clientSecret" type="password" autoComplete="current-password" required />
        </label>
        {error ? (
          <p role="alert" class="error">
            {error}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </article>
  );
}
