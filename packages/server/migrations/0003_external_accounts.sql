CREATE TABLE "external_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"customer_id" text,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"account_type" text NOT NULL,
	"identity" text NOT NULL,
	"account_info" jsonb NOT NULL,
	"ownership_type" text,
	"platform_account_id" text,
	"default_uma_deposit_account" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "external_accounts" ADD CONSTRAINT "external_accounts_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_accounts" ADD CONSTRAINT "external_accounts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "external_accounts_platform_created_idx" ON "external_accounts" USING btree ("platform_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "external_accounts_equivalent_key" ON "external_accounts" USING btree ("platform_id",coalesce("customer_id", ''),"currency","account_type","identity") WHERE "external_accounts"."deleted_at" IS NULL;