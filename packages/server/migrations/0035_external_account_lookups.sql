-- Issue 21: GET /receiver/external-account/{accountId} (the hosted API's lookupExternalAccount) keeps each
-- lookup for the quote that names it (lookupId), as uma_lookups does for UMA addresses.
CREATE TABLE "external_account_lookups" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"account_id" text NOT NULL,
	"customer_id" text,
	"sender_uma_address" text,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "external_account_lookups" ADD CONSTRAINT "external_account_lookups_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_account_lookups" ADD CONSTRAINT "external_account_lookups_account_id_external_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."external_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "external_account_lookups_platform_idx" ON "external_account_lookups" USING btree ("platform_id","created_at");
