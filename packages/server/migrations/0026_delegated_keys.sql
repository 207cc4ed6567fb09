-- Issue 21 §6: embedded wallet delegated keys (the hosted API's /auth/delegated-keys). The key pair is made by
-- paysvc when the wallet's owner signs the create; its private half is sealed (core/secrets, purpose
-- `delegated-key`) and erased when the key is revoked. At most one ACTIVE key per card and wallet.
CREATE TABLE "delegated_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"account_id" text NOT NULL,
	"card_id" text NOT NULL,
	"public_key" text NOT NULL,
	"private_key" text,
	"nickname" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "delegated_keys" ADD CONSTRAINT "delegated_keys_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegated_keys" ADD CONSTRAINT "delegated_keys_account_id_internal_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."internal_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegated_keys" ADD CONSTRAINT "delegated_keys_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delegated_keys_platform_idx" ON "delegated_keys" USING btree ("platform_id","created_at");--> statement-breakpoint
CREATE INDEX "delegated_keys_account_idx" ON "delegated_keys" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "delegated_keys_one_active" ON "delegated_keys" USING btree ("card_id","account_id") WHERE "delegated_keys"."status" = 'ACTIVE';
