import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    platformId: text("platform_id").notNull(),
    key: text("key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    state: text("state", { enum: ["IN_PROGRESS", "DONE"] }).notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    responseContentType: text("response_content_type"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    /** Unique per claim: a retry that takes an abandoned claim over gets a new one (lease rule). */
    claimToken: text("claim_token"),
    /** Service time (not the sandbox clock) of the claim, for the lease. */
    claimedAt: timestamp("claimed_at", { withTimezone: true, precision: 3 }),
    /** Service time the claim's first transaction committed: its effect happened; never re-run. */
    effectAt: timestamp("effect_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [
    primaryKey({ columns: [t.platformId, t.key] }),
    index("idempotency_keys_expires_idx").on(t.expiresAt),
  ],
);
