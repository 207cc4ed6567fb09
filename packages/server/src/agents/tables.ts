import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { customers } from "../customers/tables.js";
import { platforms } from "../platform/tables.js";

/**
 * Agents (issue 8): an app acting for one customer under a policy. The access token is stored only as its
 * SHA-256 (`token_hash`, unique; null until a device code is redeemed), like API secrets.
 */
export const agents = pgTable(
  "agents",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    name: text("name").notNull(),
    status: text("status", { enum: ["ACTIVE", "REVOKED"] }).notNull(),
    policy: jsonb("policy").notNull(),
    isPaused: boolean("is_paused").notNull().default(false),
    tokenHash: text("token_hash"),
    tokenIssuedAt: timestamp("token_issued_at", { withTimezone: true, precision: 3 }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("agents_platform_created_idx").on(t.platformId, t.createdAt, t.id),
    uniqueIndex("agents_token_hash_key").on(t.tokenHash),
  ],
);

/** Short-lived, single-use device codes; only the SHA-256 of the normalised code is kept. */
export const agentDeviceCodes = pgTable(
  "agent_device_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    redeemedAt: timestamp("redeemed_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("agent_device_codes_agent_idx").on(t.agentId)],
);

/** Which quotes an agent created: agent routes see only these, and their execution waits for approval. */
export const agentQuotes = pgTable("agent_quotes", {
  quoteId: text("quote_id").primaryKey(),
  agentId: text("agent_id")
    .notNull()
    .references(() => agents.id),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
});

/** Payments agents started (issue 21 §5, the hosted API's AgentAction): approval state and what was asked. */
export const agentActions = pgTable(
  "agent_actions",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id),
    customerId: text("customer_id").notNull(),
    type: text("type", { enum: ["EXECUTE_QUOTE", "TRANSFER_OUT", "TRANSFER_IN"] }).notNull(),
    status: text("status", { enum: ["PENDING_APPROVAL", "APPROVED", "REJECTED", "FAILED"] }).notNull(),
    quoteId: text("quote_id"),
    transactionId: text("transaction_id"),
    transferDetails: jsonb("transfer_details"),
    /** What the action counts against the policy's spending limits (AgentUsage). */
    amount: bigint("amount", { mode: "number" }),
    currency: text("currency"),
    rejectionReason: text("rejection_reason"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("agent_actions_platform_created_idx").on(t.platformId, t.createdAt, t.id),
    index("agent_actions_agent_created_idx").on(t.agentId, t.createdAt, t.id),
    index("agent_actions_transaction_idx").on(t.transactionId),
  ],
);
