ALTER TABLE "ownership_challenges" ADD COLUMN "submitted_at" timestamp (3) with time zone;--> statement-breakpoint
-- Submissions recorded before this column marked an OPEN challenge's completed_at.
UPDATE "ownership_challenges" SET "submitted_at" = "completed_at", "completed_at" = NULL
WHERE "state" = 'OPEN' AND "method" = 'LIVENESS' AND "completed_at" IS NOT NULL;
