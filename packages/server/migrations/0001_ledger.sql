CREATE TABLE "balance_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"account_id" text NOT NULL,
	"transaction_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"fee" bigint NOT NULL,
	"effective_at" timestamp (3) with time zone NOT NULL,
	"recorded_at" timestamp (3) with time zone NOT NULL,
	"balance_after" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statement_deliveries" (
	"platform_id" text NOT NULL,
	"account_id" text NOT NULL,
	"period_start" timestamp (3) with time zone NOT NULL,
	"fetched_at" timestamp (3) with time zone,
	"confirmed_at" timestamp (3) with time zone,
	CONSTRAINT "statement_deliveries_account_id_period_start_pk" PRIMARY KEY("account_id","period_start")
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"account_id" text NOT NULL,
	"customer_id" text,
	"currency" text NOT NULL,
	"sent_amount" bigint,
	"received_amount" bigint,
	"fees" bigint DEFAULT 0 NOT NULL,
	"platform_fees" bigint DEFAULT 0 NOT NULL,
	"quote_id" text,
	"payment_rail" text,
	"rail_selection_mode" text,
	"failure_reason" text,
	"pending_reason" text,
	"description" text,
	"reference" text,
	"source" jsonb NOT NULL,
	"destination" jsonb NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"settled_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"type" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "platforms" ADD COLUMN "clock_offset_ms" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "platforms" ADD COLUMN "fee_configs" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "balance_changes" ADD CONSTRAINT "balance_changes_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_changes" ADD CONSTRAINT "balance_changes_account_id_internal_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."internal_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_deliveries" ADD CONSTRAINT "statement_deliveries_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_deliveries" ADD CONSTRAINT "statement_deliveries_account_id_internal_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."internal_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "balance_changes_account_effective_idx" ON "balance_changes" USING btree ("account_id","effective_at","id");--> statement-breakpoint
CREATE INDEX "balance_changes_transaction_idx" ON "balance_changes" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "transactions_platform_created_idx" ON "transactions" USING btree ("platform_id","created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_account_idx" ON "transactions" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "transactions_quote_idx" ON "transactions" USING btree ("quote_id");--> statement-breakpoint
CREATE INDEX "webhook_events_platform_created_idx" ON "webhook_events" USING btree ("platform_id","created_at","id");