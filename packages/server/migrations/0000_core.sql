CREATE TABLE "api_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"name" text NOT NULL,
	"permissions" text[] NOT NULL,
	"client_id" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "api_tokens_client_id_key" UNIQUE("client_id")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"platform_id" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"state" text NOT NULL,
	"response_status" integer,
	"response_body" text,
	"response_content_type" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_platform_id_key_pk" PRIMARY KEY("platform_id","key")
);
--> statement-breakpoint
CREATE TABLE "agreement_consents" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"type" text NOT NULL,
	"terms_version" text NOT NULL,
	"accepted_at" timestamp (3) with time zone NOT NULL,
	"ip_address" text,
	"acceptance_method" text NOT NULL,
	"recorded_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"platform_customer_id" text,
	"customer_type" text NOT NULL,
	"kyc_status" text NOT NULL,
	"uma_address" text NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"profile" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "internal_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"customer_id" text,
	"type" text NOT NULL,
	"role" text DEFAULT 'STANDARD' NOT NULL,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"private_enabled" boolean,
	"total_balance" bigint DEFAULT 0 NOT NULL,
	"held_amount" bigint DEFAULT 0 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"document_type" text NOT NULL,
	"file_name" text NOT NULL,
	"content_sha256" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"status" text NOT NULL,
	"errors" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platforms" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"environment" text NOT NULL,
	"supported_currencies" text[] NOT NULL,
	"sandbox_skip_verification_paperwork" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreement_consents" ADD CONSTRAINT "agreement_consents_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "internal_accounts" ADD CONSTRAINT "internal_accounts_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "internal_accounts" ADD CONSTRAINT "internal_accounts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_platform_created_idx" ON "api_tokens" USING btree ("platform_id","created_at","id");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "agreement_consents_customer_idx" ON "agreement_consents" USING btree ("customer_id","type");--> statement-breakpoint
CREATE INDEX "customers_platform_created_idx" ON "customers" USING btree ("platform_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_platform_customer_id_key" ON "customers" USING btree ("platform_id","platform_customer_id") WHERE NOT "customers"."is_deleted" AND "customers"."platform_customer_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_uma_address_key" ON "customers" USING btree ("platform_id","uma_address");--> statement-breakpoint
CREATE INDEX "internal_accounts_platform_created_idx" ON "internal_accounts" USING btree ("platform_id","created_at","id");--> statement-breakpoint
CREATE INDEX "internal_accounts_customer_idx" ON "internal_accounts" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_customer_type_key" ON "documents" USING btree ("customer_id","document_type");--> statement-breakpoint
CREATE INDEX "documents_platform_created_idx" ON "documents" USING btree ("platform_id","created_at","id");--> statement-breakpoint
CREATE INDEX "verifications_platform_created_idx" ON "verifications" USING btree ("platform_id","created_at","id");--> statement-breakpoint
CREATE INDEX "verifications_customer_idx" ON "verifications" USING btree ("customer_id","created_at");