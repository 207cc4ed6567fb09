import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Background work due at a time in the platform's clock (so a sandbox clock advance makes it due):
 * settlements, returns, webhook deliveries. Claimed with a lease, so several processes share the work.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id").notNull(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").notNull(),
    runAt: timestamp("run_at", { withTimezone: true, precision: 3 }).notNull(),
    state: text("state", { enum: ["PENDING", "DONE", "FAILED"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true, precision: 3 }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("jobs_due_idx").on(t.state, t.runAt)],
);
