CREATE TABLE "agent_device_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"redeemed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_quotes" (
	"quote_id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"policy" jsonb NOT NULL,
	"token_hash" text,
	"token_issued_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchange_rates" (
	"platform_id" text NOT NULL,
	"source_currency" text NOT NULL,
	"destination_currency" text NOT NULL,
	"rate" text NOT NULL,
	"fetched_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "exchange_rates_platform_id_source_currency_destination_currency_pk" PRIMARY KEY("platform_id","source_currency","destination_currency")
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"code" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"inviter_customer_id" text NOT NULL,
	"url" text NOT NULL,
	"inviter_uma" text NOT NULL,
	"invitee_uma" text,
	"amount_to_send" bigint,
	"status" text NOT NULL,
	"expires_at" timestamp (3) with time zone,
	"claimed_at" timestamp (3) with time zone,
	"cancelled_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_volumes" (
	"platform_id" text NOT NULL,
	"day" text NOT NULL,
	"volume" bigint NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "daily_volumes_platform_id_day_pk" PRIMARY KEY("platform_id","day")
);
--> statement-breakpoint
CREATE TABLE "sca_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"purpose" text NOT NULL,
	"factor" text NOT NULL,
	"code_hash" text,
	"webauthn_challenge" text,
	"subject_id" text,
	"state" text NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"completed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sca_customers" (
	"customer_id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp (3) with time zone,
	"verified_email" text,
	"email_verified_at" timestamp (3) with time zone,
	"verified_phone" text,
	"phone_verified_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sca_passkeys" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"nickname" text NOT NULL,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint NOT NULL,
	"transports" jsonb,
	"deleted_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sca_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"factor" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stablecoin_holdings" (
	"provider_account_id" text NOT NULL,
	"stablecoin_id" text NOT NULL,
	"platform_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "stablecoin_holdings_provider_account_id_stablecoin_id_pk" PRIMARY KEY("provider_account_id","stablecoin_id")
);
--> statement-breakpoint
CREATE TABLE "stablecoin_operations" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"stablecoin_id" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"account_id" text NOT NULL,
	"provider_account_id" text NOT NULL,
	"transaction_id" text NOT NULL,
	"failure_reason" text,
	"completed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stablecoin_provider_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"provider" text NOT NULL,
	"account_reference" text NOT NULL,
	"networks" jsonb NOT NULL,
	"status" text NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stablecoins" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"symbol" text NOT NULL,
	"name" text NOT NULL,
	"network" text NOT NULL,
	"token_identifier" text NOT NULL,
	"token_identity" text NOT NULL,
	"decimals" integer NOT NULL,
	"backing_currency" text NOT NULL,
	"supported_operations" jsonb NOT NULL,
	"enablement_status" text NOT NULL,
	"provisioned" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "external_accounts" ADD COLUMN "bank_validation" jsonb;--> statement-breakpoint
ALTER TABLE "external_accounts" ADD COLUMN "trusted_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "platforms" ADD COLUMN "invitation_base_url" text;--> statement-breakpoint
ALTER TABLE "platforms" ADD COLUMN "daily_volume_limit" bigint DEFAULT 1000000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_device_codes" ADD CONSTRAINT "agent_device_codes_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_quotes" ADD CONSTRAINT "agent_quotes_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_inviter_customer_id_customers_id_fk" FOREIGN KEY ("inviter_customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sca_challenges" ADD CONSTRAINT "sca_challenges_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sca_challenges" ADD CONSTRAINT "sca_challenges_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sca_customers" ADD CONSTRAINT "sca_customers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sca_customers" ADD CONSTRAINT "sca_customers_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sca_passkeys" ADD CONSTRAINT "sca_passkeys_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sca_passkeys" ADD CONSTRAINT "sca_passkeys_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sca_sessions" ADD CONSTRAINT "sca_sessions_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sca_sessions" ADD CONSTRAINT "sca_sessions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stablecoin_holdings" ADD CONSTRAINT "stablecoin_holdings_provider_account_id_stablecoin_provider_accounts_id_fk" FOREIGN KEY ("provider_account_id") REFERENCES "public"."stablecoin_provider_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stablecoin_holdings" ADD CONSTRAINT "stablecoin_holdings_stablecoin_id_stablecoins_id_fk" FOREIGN KEY ("stablecoin_id") REFERENCES "public"."stablecoins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stablecoin_holdings" ADD CONSTRAINT "stablecoin_holdings_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stablecoin_operations" ADD CONSTRAINT "stablecoin_operations_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stablecoin_operations" ADD CONSTRAINT "stablecoin_operations_stablecoin_id_stablecoins_id_fk" FOREIGN KEY ("stablecoin_id") REFERENCES "public"."stablecoins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stablecoin_operations" ADD CONSTRAINT "stablecoin_operations_provider_account_id_stablecoin_provider_accounts_id_fk" FOREIGN KEY ("provider_account_id") REFERENCES "public"."stablecoin_provider_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stablecoin_provider_accounts" ADD CONSTRAINT "stablecoin_provider_accounts_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stablecoins" ADD CONSTRAINT "stablecoins_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_device_codes_agent_idx" ON "agent_device_codes" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "agents_platform_created_idx" ON "agents" USING btree ("platform_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "agents_token_hash_key" ON "agents" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "invitations_platform_created_idx" ON "invitations" USING btree ("platform_id","created_at","code");--> statement-breakpoint
CREATE INDEX "sca_challenges_customer_idx" ON "sca_challenges" USING btree ("customer_id","purpose","created_at");--> statement-breakpoint
CREATE INDEX "sca_challenges_subject_idx" ON "sca_challenges" USING btree ("subject_id") WHERE "sca_challenges"."subject_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "sca_passkeys_one_per_customer_key" ON "sca_passkeys" USING btree ("customer_id") WHERE "sca_passkeys"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "sca_sessions_customer_idx" ON "sca_sessions" USING btree ("customer_id","expires_at");--> statement-breakpoint
CREATE INDEX "stablecoin_operations_stablecoin_created_idx" ON "stablecoin_operations" USING btree ("stablecoin_id","created_at","id");--> statement-breakpoint
CREATE INDEX "stablecoin_provider_accounts_platform_created_idx" ON "stablecoin_provider_accounts" USING btree ("platform_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "stablecoins_platform_symbol_key" ON "stablecoins" USING btree ("platform_id","symbol");--> statement-breakpoint
CREATE UNIQUE INDEX "stablecoins_platform_token_key" ON "stablecoins" USING btree ("platform_id","network","token_identity");--> statement-breakpoint
CREATE INDEX "stablecoins_platform_created_idx" ON "stablecoins" USING btree ("platform_id","created_at","id");