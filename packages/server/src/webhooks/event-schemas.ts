import { type Static, Type } from "typebox";
import { Page, PageQuery, Query, SortQuery } from "../core/http/pagination.js";
import { DateTime, StringEnum } from "../core/http/schemas.js";
import { EVENT_TYPES, type EventType } from "./outbox.js";

/**
 * `type` filter of `GET /events` and `GET /webhooks/deliveries`: one event type, or several by repeating
 * the parameter (`type=CARD.STATUS_CHANGE&type=TEST`), as `GET /exchange-rates` takes `destinationCurrency`.
 */
export const EventTypeFilter = Type.Unsafe<EventType | EventType[]>({
  // if/then/else rather than anyOf, so a bad value gets one FieldError: on `type` for a single value, on
  // `type[i]` for a bad entry of several (an anyOf would also blame the branch the value did not take).
  if: { type: "string" },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a thenable.
  then: StringEnum(EVENT_TYPES),
  else: Type.Array(StringEnum(EVENT_TYPES), { minItems: 1, maxItems: EVENT_TYPES.length }),
  description:
    "Only events of these types: repeat the parameter for several (`type=CARD.STATUS_CHANGE&type=TEST`).",
});

/** The filter's types, one list whichever form it came in; undefined when no filter was given. */
export function eventTypesOf(filter: string | readonly string[] | undefined): string[] | undefined {
  if (filter === undefined) return undefined;
  return [...new Set(typeof filter === "string" ? [filter] : filter)].sort();
}

/**
 * One event as its deliveries carry it: the envelope `{id, type, timestamp, data}` (conventions §7.1),
 * parsed from the bytes stored once at enqueue time. `timestamp` is the event's creation time.
 */
export const WebhookEvent = Type.Object({
  id: Type.String({ description: "`Webhook:<uuid>`; the same on every delivery and re-send." }),
  type: Type.String({ description: "The event type (conventions §7.4)." }),
  timestamp: DateTime({ description: "When the event was raised (the platform's clock)." }),
  data: Type.Unknown({ description: "The post-change resource, in the shape the API returns for it." }),
});
export type WebhookEvent = Static<typeof WebhookEvent>;

export const ListEventsQuery = Query({
  type: Type.Optional(EventTypeFilter),
  createdAfter: Type.Optional(DateTime({ description: "Raised at or after this instant." })),
  createdBefore: Type.Optional(DateTime({ description: "Raised at or before this instant." })),
  ...PageQuery,
  ...SortQuery,
});
export type ListEventsQuery = Static<typeof ListEventsQuery>;

export const EventPage = Page(WebhookEvent);
