import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { platforms } from "../../platform/tables.js";

/** A bulk customer import (`POST /customers/bulk/csv`): its status and progress counters. */
export const customerBulkJobs = pgTable(
  "customer_bulk_jobs",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    tokenId: text("token_id").notNull(),
    status: text("status", { enum: ["PENDING", "PROCESSING", "COMPLETED", "FAILED"] }).notNull(),
    columns: jsonb("columns").notNull(),
    total: integer("total").notNull(),
    processed: integer("processed").notNull().default(0),
    successful: integer("successful").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [index("customer_bulk_jobs_platform_created_idx").on(t.platformId, t.createdAt, t.id)],
);

/** One CSV data row of an import: its cells until processed (then cleared), and its error entry if it failed. */
export const customerBulkRows = pgTable(
  "customer_bulk_rows",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => customerBulkJobs.id),
    rowNumber: integer("row_number").notNull(),
    cells: jsonb("cells"),
    error: jsonb("error"),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.rowNumber] })],
);
