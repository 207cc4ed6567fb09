CREATE TABLE "auth_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"auth_method_id" text NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_methods" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"account_id" text NOT NULL,
	"type" text NOT NULL,
	"nickname" text NOT NULL,
	"credential_id" text,
	"passkey_public_key" text,
	"passkey_counter" bigint,
	"passkey_transports" jsonb,
	"oidc_issuer" text,
	"oidc_audience" text,
	"oidc_subject" text,
	"revoked_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"account_id" text NOT NULL,
	"auth_method_id" text NOT NULL,
	"public_key" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "embedded_wallet_seeds" (
	"account_id" text PRIMARY KEY NOT NULL,
	"entropy" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "otp_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"auth_method_id" text NOT NULL,
	"target_private_key" text NOT NULL,
	"target_public_key" text NOT NULL,
	"code_sha256" text NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"state" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signed_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"account_id" text NOT NULL,
	"action" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"body_sha256" text NOT NULL,
	"payload_to_sign" text NOT NULL,
	"context" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text NOT NULL,
	"stamp_sha256" text,
	"ready_at" timestamp (3) with time zone,
	"result_status" integer,
	"result_body" text,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"completed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "platforms" ADD COLUMN "wallet_auth_config" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "auth_attempts" ADD CONSTRAINT "auth_attempts_auth_method_id_auth_methods_id_fk" FOREIGN KEY ("auth_method_id") REFERENCES "public"."auth_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_methods" ADD CONSTRAINT "auth_methods_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_methods" ADD CONSTRAINT "auth_methods_account_id_internal_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."internal_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_account_id_internal_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."internal_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_auth_method_id_auth_methods_id_fk" FOREIGN KEY ("auth_method_id") REFERENCES "public"."auth_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "embedded_wallet_seeds" ADD CONSTRAINT "embedded_wallet_seeds_account_id_internal_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."internal_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otp_challenges" ADD CONSTRAINT "otp_challenges_auth_method_id_auth_methods_id_fk" FOREIGN KEY ("auth_method_id") REFERENCES "public"."auth_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signed_requests" ADD CONSTRAINT "signed_requests_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_attempts_method_idx" ON "auth_attempts" USING btree ("auth_method_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "auth_methods_account_idx" ON "auth_methods" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_methods_one_otp_key" ON "auth_methods" USING btree ("account_id","type") WHERE "auth_methods"."revoked_at" IS NULL AND "auth_methods"."type" IN ('EMAIL_OTP', 'SMS_OTP');--> statement-breakpoint
CREATE UNIQUE INDEX "auth_methods_passkey_key" ON "auth_methods" USING btree ("account_id","credential_id") WHERE "auth_methods"."revoked_at" IS NULL AND "auth_methods"."credential_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "auth_sessions_account_idx" ON "auth_sessions" USING btree ("account_id","expires_at");--> statement-breakpoint
CREATE INDEX "auth_sessions_method_idx" ON "auth_sessions" USING btree ("auth_method_id");--> statement-breakpoint
CREATE INDEX "otp_challenges_method_idx" ON "otp_challenges" USING btree ("auth_method_id","created_at");--> statement-breakpoint
CREATE INDEX "signed_requests_account_idx" ON "signed_requests" USING btree ("account_id","created_at");