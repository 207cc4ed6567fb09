CREATE TABLE "card_reveals" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"card_id" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"card_id" text NOT NULL,
	"account_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"issuer_transaction_token" text NOT NULL,
	"status" text NOT NULL,
	"direction" text NOT NULL,
	"merchant" jsonb NOT NULL,
	"currency" text NOT NULL,
	"authorized_amount" bigint NOT NULL,
	"hold_amount" bigint DEFAULT 0 NOT NULL,
	"settled_amount" bigint,
	"refunded_amount" bigint,
	"original_transaction_id" text,
	"card_declined_reason" text,
	"sandbox_outcome" text,
	"pull_count" integer DEFAULT 0 NOT NULL,
	"pull_total" bigint DEFAULT 0 NOT NULL,
	"pull_pending_count" integer DEFAULT 0 NOT NULL,
	"settlement_count" integer DEFAULT 0 NOT NULL,
	"settlement_total" bigint DEFAULT 0 NOT NULL,
	"refund_count" integer DEFAULT 0 NOT NULL,
	"refund_total" bigint DEFAULT 0 NOT NULL,
	"authorized_at" timestamp (3) with time zone NOT NULL,
	"last_event_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cards" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"cardholder_id" text NOT NULL,
	"platform_card_id" text NOT NULL,
	"status" text NOT NULL,
	"status_reason" text,
	"pin_status" text DEFAULT 'NOT_SET' NOT NULL,
	"pin_hash" text,
	"pin_failed_attempts" integer DEFAULT 0 NOT NULL,
	"brand" text NOT NULL,
	"form" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"funding_sources" jsonb NOT NULL,
	"max_spend_per_transaction" bigint,
	"currency" text NOT NULL,
	"supports_digital_wallet_tokenization" boolean NOT NULL,
	"processor_ref" text NOT NULL,
	"issuer_ref" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "platforms" ADD COLUMN "card_tokenization_2fa_config" jsonb DEFAULT '{"methods":["EMAIL_OTP","SMS_OTP"]}'::jsonb;--> statement-breakpoint
ALTER TABLE "platforms" ADD COLUMN "max_live_cards" integer DEFAULT 1000 NOT NULL;--> statement-breakpoint
ALTER TABLE "platforms" ADD COLUMN "max_live_cards_per_cardholder" integer;--> statement-breakpoint
ALTER TABLE "card_reveals" ADD CONSTRAINT "card_reveals_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_reveals" ADD CONSTRAINT "card_reveals_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD CONSTRAINT "card_transactions_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD CONSTRAINT "card_transactions_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD CONSTRAINT "card_transactions_account_id_internal_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."internal_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD CONSTRAINT "card_transactions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_cardholder_id_customers_id_fk" FOREIGN KEY ("cardholder_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_transactions_platform_created_idx" ON "card_transactions" USING btree ("platform_id","created_at","id");--> statement-breakpoint
CREATE INDEX "card_transactions_card_idx" ON "card_transactions" USING btree ("card_id","created_at");--> statement-breakpoint
CREATE INDEX "card_transactions_original_idx" ON "card_transactions" USING btree ("original_transaction_id") WHERE "card_transactions"."original_transaction_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "cards_platform_created_idx" ON "cards" USING btree ("platform_id","created_at","id");--> statement-breakpoint
CREATE INDEX "cards_cardholder_idx" ON "cards" USING btree ("cardholder_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "cards_platform_card_id_key" ON "cards" USING btree ("platform_id","platform_card_id");