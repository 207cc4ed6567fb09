-- Issue 21: bulk customer import (POST /customers/bulk/csv). One row per import job with its progress, and one
-- row per CSV data row: its cells until it is processed, then its error entry when it failed.
CREATE TABLE "customer_bulk_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"token_id" text NOT NULL,
	"status" text NOT NULL,
	"columns" jsonb NOT NULL,
	"total" integer NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"successful" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"completed_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "customer_bulk_rows" (
	"job_id" text NOT NULL,
	"row_number" integer NOT NULL,
	"cells" jsonb,
	"error" jsonb,
	CONSTRAINT "customer_bulk_rows_job_id_row_number_pk" PRIMARY KEY("job_id","row_number")
);
--> statement-breakpoint
ALTER TABLE "customer_bulk_jobs" ADD CONSTRAINT "customer_bulk_jobs_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_bulk_rows" ADD CONSTRAINT "customer_bulk_rows_job_id_customer_bulk_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."customer_bulk_jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_bulk_jobs_platform_created_idx" ON "customer_bulk_jobs" USING btree ("platform_id","created_at","id");
