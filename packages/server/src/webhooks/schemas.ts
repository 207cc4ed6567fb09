import { type Static, Type } from "typebox";
import { Page, PageQuery, Query, SortQuery } from "../core/http/pagination.js";
import { DateTime, StringEnum } from "../core/http/schemas.js";
import { OUTBOUND_ERROR_CLASSES } from "../core/outbound/request.js";
import { EventTypeFilter } from "./event-schemas.js";

export const SigningKey = Type.Object({
  kty: Type.Literal("EC"),
  crv: Type.Literal("P-256"),
  x: Type.String(),
  y: Type.String(),
  kid: Type.String(),
  use: Type.Literal("sig"),
  alg: Type.Literal("ES256"),
});

/** `GET /webhooks/signing-keys` (conventions §7.2): the caller's platform's keys only. */
export const SigningKeys = Type.Object({ keys: Type.Array(SigningKey) });
export type SigningKeys = Static<typeof SigningKeys>;

/**
 * Why an attempt did not deliver: HTTP_STATUS (an answer other than 2xx or 409; see statusCode), or the
 * class of the failure that left no answer. Never the socket's text (docs/decisions.md "Security (issue 16)").
 */
export const DELIVERY_ERROR_CLASSES = ["HTTP_STATUS", ...OUTBOUND_ERROR_CLASSES] as const;
export type DeliveryErrorClass = (typeof DELIVERY_ERROR_CLASSES)[number];

export const WebhookAttempt = Type.Object({
  attempt: Type.Integer({ minimum: 1 }),
  url: Type.String(),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([StringEnum(DELIVERY_ERROR_CLASSES), Type.Null()]),
  latencyMs: Type.Integer({ minimum: 0 }),
  attemptedAt: DateTime(),
});
export type WebhookAttempt = Static<typeof WebhookAttempt>;

/** One delivery of one event (docs/decisions.md "Webhooks"). */
export const WebhookDelivery = Type.Object({
  id: Type.String(),
  eventId: Type.String(),
  eventType: Type.String(),
  state: StringEnum(["PENDING", "DELIVERED", "FAILED", "UNDELIVERABLE"]),
  attempts: Type.Array(WebhookAttempt),
  nextAttemptAt: Type.Union([DateTime(), Type.Null()]),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const ListDeliveriesQuery = Query({
  eventId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  state: Type.Optional(StringEnum(["PENDING", "DELIVERED", "FAILED", "UNDELIVERABLE"])),
  type: Type.Optional(EventTypeFilter),
  ...PageQuery,
  ...SortQuery,
});
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuery>;

export const DeliveryPage = Page(WebhookDelivery);

/** `POST /sandbox/webhooks/test` answer; snake_case as the conventions write it (§7.3). */
export const WebhookTestResult = Type.Object({
  url: Type.String(),
  response_status: Type.Integer(),
  response_body: Type.Optional(Type.String()),
});
export type WebhookTestResult = Static<typeof WebhookTestResult>;
