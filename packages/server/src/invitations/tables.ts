import { bigint, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { customers } from "../customers/tables.js";
import { platforms } from "../platform/tables.js";

/**
 * Invitations a customer sends by UMA (docs/decisions/bank-validation-invitations.md). `status` is stored as
 * PENDING, CLAIMED or CANCELLED; EXPIRED is read from `expires_at` against the platform clock.
 */
export const invitations = pgTable(
  "invitations",
  {
    /** The shareable code: unique across platforms, looked up only within the caller's platform. */
    code: text("code").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    inviterCustomerId: text("inviter_customer_id")
      .notNull()
      .references(() => customers.id),
    /** Fixed at create from the platform's invitationBaseUrl, so a shared link never changes. */
    url: text("url").notNull(),
    inviterUma: text("inviter_uma").notNull(),
    inviteeUma: text("invitee_uma"),
    /** USD cents the inviter means to send once the invitation is claimed. */
    amountToSend: bigint("amount_to_send", { mode: "number" }),
    status: text("status", { enum: ["PENDING", "CLAIMED", "CANCELLED"] }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }),
    claimedAt: timestamp("claimed_at", { withTimezone: true, precision: 3 }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("invitations_platform_created_idx").on(t.platformId, t.createdAt, t.code)],
);
