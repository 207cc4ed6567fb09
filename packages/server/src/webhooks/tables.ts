import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
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
  (t) => [index("webhook_events_platform_created_idx").on(t.platformId, t.createdAt, t.id)],
);
