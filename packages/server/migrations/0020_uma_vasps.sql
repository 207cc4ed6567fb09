-- UMA (issue 19): each platform's UMA domain and VASP keys (sealed secp256k1 keys and their certificate
-- chains), the nonces of accepted signed messages, and receiver lookups kept for the quote that follows.
CREATE TABLE "uma_lookups" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"customer_id" text,
	"receiver_address" text NOT NULL,
	"sender_address" text,
	"response" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uma_nonces" (
	"id" text PRIMARY KEY NOT NULL,
	"signed_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uma_vasps" (
	"platform_id" text PRIMARY KEY NOT NULL,
	"signing_private_key" text NOT NULL,
	"encryption_private_key" text NOT NULL,
	"signing_cert_chain" text NOT NULL,
	"encryption_cert_chain" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "platforms" ADD COLUMN "uma_domain" text;--> statement-breakpoint
ALTER TABLE "uma_lookups" ADD CONSTRAINT "uma_lookups_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uma_vasps" ADD CONSTRAINT "uma_vasps_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uma_lookups_platform_idx" ON "uma_lookups" USING btree ("platform_id","created_at");--> statement-breakpoint
CREATE INDEX "uma_nonces_signed_at_idx" ON "uma_nonces" USING btree ("signed_at");--> statement-breakpoint
ALTER TABLE "platforms" ADD CONSTRAINT "platforms_uma_domain_unique" UNIQUE("uma_domain");