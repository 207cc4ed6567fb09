import { useState } from "preact/hooks";
import type { Api } from "../api.js";
import { describeError, when } from "../format.js";

const STEPS: [string, number][] = [
  ["+1 hour", 3_600_000],
  ["+1 day", 86_400_000],
  ["+3 days", 3 * 86_400_000],
  ["+1 month", 30 * 86_400_000],
];

/** The platform's sandbox clock, `GET /sandbox/clock`, and `POST /sandbox/clock/advance`. */
export function ClockBar({
  api,
  now,
  onChanged,
}: {
  api: Api;
  now: string | undefined;
  onChanged: () => void;
}) {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const advanceTo = async (to: string) => {
    setBusy(true);
    try {
      await api.post("/sandbox/clock/advance", { to });
      setError(undefined);
      onChanged();
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  const advanceBy = (ms: number) => {
    if (now) void advanceTo(new Date(Date.parse(now) + ms).toISOString());
  };
  const advanceToInput = (event: Event) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget as HTMLFormElement).get("to") ?? "");
    if (value) void advanceTo(new Date(value).toISOString());
  };

  return (
    <section aria-label="Platform clock" class="clock">
      <p>
        Platform clock: <strong data-testid="clock-now">{when(now)}</strong>
      </p>
      <fieldset>
        {STEPS.map(([label, ms]) => (
          <button type="button" key={label} disabled={busy || !now} onClick={() => advanceBy(ms)}>
            Advance {label}
          </button>
        ))}
      </fieldset>
      <form onSubmit={advanceToInput} class="inline">
        <label>
          Advance to (RFC 3339)
          <input name="to" placeholder="2031-04-01T00:00:00Z" />
        </label>
        <button type="submit" disabled={busy}>
          Advance
        </button>
      </form>
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
