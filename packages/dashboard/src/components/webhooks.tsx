import { useState } from "preact/hooks";
import type { WebhookDelivery } from "../../../sdk/src/webhooks/types.js";
import type { Api, Page } from "../api.js";
import type { WebhookEvent } from "../events.js";
import { describeError, when } from "../format.js";
import { useLoad } from "../hooks.js";

function lastStatus(delivery: WebhookDelivery): string {
  const last = delivery.attempts[delivery.attempts.length - 1];
  if (!last) return "—";
  return last.statusCode === null ? (last.error ?? "no answer") : String(last.statusCode);
}

function DeliveryDetail({ api, delivery }: { api: Api; delivery: WebhookDelivery }) {
  const event = useLoad(
    () => api.get<WebhookEvent>(`/events/${encodeURIComponent(delivery.eventId)}`),
    [delivery.eventId],
  );
  return (
    <div>
      <p>
        Event <small>{delivery.eventId}</small>
      </p>
      <table>
        <thead>
          <tr>
            <th>Attempt</th>
            <th>At</th>
            <th>URL</th>
            <th>Response</th>
            <th>Latency</th>
          </tr>
        </thead>
        <tbody>
          {delivery.attempts.map((a) => (
            <tr key={a.attempt}>
              <td>{a.attempt}</td>
              <td>{when(a.attemptedAt)}</td>
              <td>{a.url}</td>
              <td>{a.statusCode ?? a.error}</td>
              <td>{a.latencyMs} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
      {event.error ? <p class="error">{event.error}</p> : null}
      {event.data ? <pre data-testid="payload">{JSON.stringify(event.data, null, 2)}</pre> : null}
    </div>
  );
}

/** Webhook deliveries (`GET /webhooks/deliveries`) with payloads, answers and Resend. */
export function Webhooks({ api, now }: { api: Api; now: string }) {
  const [round, setRound] = useState(0);
  const deliveries = useLoad(
    () => api.get<Page<WebhookDelivery>>("/webhooks/deliveries", { limit: 100 }),
    [now, round],
  );
  const [open, setOpen] = useState<string | undefined>();
  const [message, setMessage] = useState<string | undefined>();

  const resend = async (delivery: WebhookDelivery) => {
    try {
      const created = await api.post<WebhookDelivery>(
        `/webhooks/deliveries/${encodeURIComponent(delivery.id)}/resend`,
      );
      setMessage(`Resent ${delivery.eventType} as delivery ${created.id}.`);
    } catch (failure) {
      setMessage(describeError(failure));
    }
    setRound((n) => n + 1);
  };

  return (
    <>
      <p>
        <button type="button" onClick={() => setRound((n) => n + 1)}>
          Refresh
        </button>
      </p>
      {message ? (
        <p role="status" data-testid="webhook-message">
          {message}
        </p>
      ) : null}
      {deliveries.error ? <p class="error">{deliveries.error}</p> : null}
      <table>
        <thead>
          <tr>
            <th>Created</th>
            <th>Event type</th>
            <th>State</th>
            <th>Attempts</th>
            <th>Last response</th>
            <th />
          </tr>
        </thead>
        <tbody data-testid="deliveries">
          {(deliveries.data?.data ?? []).map((d) => [
            <tr key={d.id} data-testid="delivery">
              <td>{when(d.createdAt)}</td>
              <td>
                <button type="button" class="link" onClick={() => setOpen(open === d.id ? undefined : d.id)}>
                  {d.eventType}
                </button>
              </td>
              <td>{d.state}</td>
              <td>{d.attempts.length}</td>
              <td>{lastStatus(d)}</td>
              <td>
                <button type="button" class="secondary" onClick={() => void resend(d)}>
                  Resend
                </button>
              </td>
            </tr>,
            open === d.id ? (
              <tr key={`${d.id}-detail`}>
                <td colSpan={6}>
                  <DeliveryDetail api={api} delivery={d} />
                </td>
              </tr>
            ) : null,
          ])}
        </tbody>
      </table>
      {deliveries.data?.data.length === 0 ? <p>No deliveries yet.</p> : null}
    </>
  );
}
