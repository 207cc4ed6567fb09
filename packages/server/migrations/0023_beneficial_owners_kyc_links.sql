-- Issue 21 §3: beneficial owners become their own resource (the hosted API's /beneficial-owners), and the
-- hosted KYC link (POST /customers/{customerId}/kyc-link) keeps only the hash of its single token.
CREATE TABLE "beneficial_owners" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"roles" jsonb NOT NULL,
	"ownership_percentage" integer NOT NULL,
	"personal_info" jsonb NOT NULL,
	"kyc_status" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kyc_links" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"redirect_uri" text,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "beneficial_owners" ADD CONSTRAINT "beneficial_owners_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "beneficial_owners" ADD CONSTRAINT "beneficial_owners_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_links" ADD CONSTRAINT "kyc_links_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_links" ADD CONSTRAINT "kyc_links_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "beneficial_owners_platform_created_idx" ON "beneficial_owners" USING btree ("platform_id","created_at","id");--> statement-breakpoint
CREATE INDEX "beneficial_owners_customer_idx" ON "beneficial_owners" USING btree ("customer_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "kyc_links_token_hash_key" ON "kyc_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "verifications_platform_status_idx" ON "verifications" USING btree ("platform_id","status","created_at","id");
