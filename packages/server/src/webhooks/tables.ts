import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { platforms } from "../platform/tables.js";

/**
 * The transactional outbox: an event is written in the same transaction as the change that causes it;
 * delivery (the webhooks area) reads from here. The body is serialized once and sent byte for byte.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    type: text("type").notNull(),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("webhook_events_platform_created_idx").on(t.platformId, t.createdAt, t.id),
    // The type filters of GET /events and GET /webhooks/deliveries (migration 0028).
    index("webhook_events_platform_type_idx").on(t.platformId, t.type, t.createdAt, t.id),
  ],
);

/**
 * One delivery of an event to the platform's endpoint (docs/decisions.md "Webhooks"). An event raised
 * while no endpoint is set gets one UNDELIVERABLE row and is never sent; a re-send adds a new row. The row
 * is its own job: PENDING and due at `next_attempt_at` (webhooks/dispatcher.ts).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id),
    platformId: text("platform_id").notNull(),
    state: text("state", { enum: ["PENDING", "DELIVERED", "FAILED", "UNDELIVERABLE"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    firstAttemptAt: timestamp("first_attempt_at", { withTimezone: true, precision: 3 }),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, precision: 3 }),
    /** Service time until which one sender holds this delivery (see webhooks/dispatcher.ts). */
    lockedUntil: timestamp("locked_until", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("webhook_deliveries_platform_created_idx").on(t.platformId, t.createdAt, t.id),
    index("webhook_deliveries_event_idx").on(t.eventId),
    index("webhook_deliveries_due_idx").on(t.platformId, t.nextAttemptAt).where(sql`${t.state} = 'PENDING'`),
  ],
);

/** Every attempt of a delivery: the receiver's status code or the transport error, and the latency. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id),
    attempt: integer("attempt").notNull(),
    url: text("url").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    latencyMs: integer("latency_ms").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);

/**
 * Each platform's ECDSA P-256 signing keys: a platform's events are signed only with its own keys, and
 * `GET /webhooks/signing-keys` lists only the caller's (docs/decisions.md "Security (issue 16)"). A key
 * is listed from `created_at`, signs from `signs_from` (≥ 24 h after listing, except a platform's first
 * key), and stops signing at `retires_at`; it stays listed 8 days after that (conventions §7.2). The
 * private JWK is stored as is and never served. `kid` is unique per platform only: the deployment-wide
 * key of before issue 16 was copied, retired, to every platform that existed then.
 */
export const webhookSigningKeys = pgTable(
  "webhook_signing_keys",
  {
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    kid: text("kid").notNull(),
    publicJwk: jsonb("public_jwk").notNull(),
    privateJwk: jsonb("private_jwk").notNull(),
    signsFrom: timestamp("signs_from", { withTimezone: true, precision: 3 }).notNull(),
    retiresAt: timestamp("retires_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.platformId, t.kid] })],
);
