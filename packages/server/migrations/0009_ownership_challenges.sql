CREATE TABLE "ownership_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"external_account_id" text NOT NULL,
	"method" text NOT NULL,
	"state" text NOT NULL,
	"message_to_sign" text,
	"token_hash" text,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"completed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ownership_challenges" ADD CONSTRAINT "ownership_challenges_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ownership_challenges" ADD CONSTRAINT "ownership_challenges_external_account_id_external_accounts_id_fk" FOREIGN KEY ("external_account_id") REFERENCES "public"."external_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ownership_challenges_account_created_idx" ON "ownership_challenges" USING btree ("external_account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ownership_challenges_token_key" ON "ownership_challenges" USING btree ("token_hash") WHERE "ownership_challenges"."token_hash" IS NOT NULL;