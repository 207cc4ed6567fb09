import type { Api, Page } from "./api.js";

export interface WebhookEvent {
  id: string;
  type: string;
  timestamp: string;
  data: unknown;
}

/** Each resource's state history, oldest first: the recent events (`GET /events`) whose `data.id` names it. */
export async function historiesByResource(api: Api): Promise<Map<string, WebhookEvent[]>> {
  const page = await api.get<Page<WebhookEvent>>("/events", { limit: 100, sortOrder: "asc" });
  const byId = new Map<string, WebhookEvent[]>();
  for (const event of page.data) {
    const id = (event.data as { id?: unknown } | null)?.id;
    if (typeof id !== "string") continue;
    const list = byId.get(id) ?? [];
    list.push(event);
    byId.set(id, list);
  }
  return byId;
}

/** The status an event's resource had, when it names one. */
export function statusOf(event: WebhookEvent): string {
  const status = (event.data as { status?: unknown } | null)?.status;
  return typeof status === "string" ? status : "";
}
