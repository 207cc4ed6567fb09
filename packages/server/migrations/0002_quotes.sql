CREATE TABLE "quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"status" text NOT NULL,
	"customer_id" text,
	"source_account_id" text,
	"destination_account_id" text,
	"sending_currency" text NOT NULL,
	"receiving_currency" text NOT NULL,
	"locked_currency_side" text NOT NULL,
	"locked_currency_amount" bigint NOT NULL,
	"total_sending_amount" bigint NOT NULL,
	"total_receiving_amount" bigint NOT NULL,
	"exchange_rate" double precision NOT NULL,
	"fees_included" bigint NOT NULL,
	"platform_fees_included" bigint NOT NULL,
	"transaction_id" text,
	"source" jsonb NOT NULL,
	"destination" jsonb NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quotes_platform_created_idx" ON "quotes" USING btree ("platform_id","created_at","id");